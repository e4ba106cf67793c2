// node:process for bundled packages: the sandbox's `process` global itself (isolate/process.js),
// so that a package's process.env is the component's, the owner's variables of the run.
// CommonJS, because that is how packages reach it: require("process").env.
/* global module */
module.exports = globalThis.process;
