// \`process\` for bundled code that names it: a stand-in (process/browser.js: env {}, nextTick),
// injected module-scoped, so \`globalThis.process\` stays undefined and nothing of Node's leaks in.
// It says it is Node (packages branch on process.versions.node) because what they then import,
// Node's modules, is what the bundle provides.
import process from "process/browser.js";

process.version = "v24.0.0";
process.versions = { node: "24.0.0" };
export { process };
