// `process` for bundled code that names it: the sandbox's `process` global itself
// (isolate/process.js), so the component and its packages share one process.env, the owner's
// variables of the run. Bundles made before that global existed carry their own stand-in
// (process/browser.js, env {}): saving the component again bundles it anew.
export const process = globalThis.process;
