// Runs INSIDE the isolate: what the runner reaches of the runtime.
export { install, fireTimer } from "./runtime.js";
export { settle, forgetPending } from "./host.js";
export { bind } from "./invoke.js";
export { makeWorkflow } from "./workflow.js";
