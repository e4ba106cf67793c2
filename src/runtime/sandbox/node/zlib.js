// node:zlib for bundled code: browserify-zlib (pako), plus the \`constants\` object Node has had
// since v7, which the polyfill only spreads over its top level.
import * as zlib from "browserify-zlib";

const base = zlib.default ?? zlib;
export const constants = Object.fromEntries(Object.entries(base).filter(([k, v]) => /^Z_/.test(k) && typeof v === "number"));
export * from "browserify-zlib";
export default { ...base, constants };
