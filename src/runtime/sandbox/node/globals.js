// Globals Node code takes for granted, injected by the bundler into the components and packages
// that use them (and only those): module-scoped, so `globalThis.process` stays undefined.
import { Buffer } from "buffer";
import process from "process/browser.js";
import { AbortController, AbortSignal } from "abort-controller/dist/abort-controller.mjs";

process.env = process.env || {};
export { Buffer, process, AbortController, AbortSignal };
