// `process` for bundled code that names it: a stand-in (process/browser.js: env {}, nextTick),
// injected module-scoped, so `globalThis.process` stays undefined and nothing of Node's leaks in.
export { default as process } from "process/browser.js";
