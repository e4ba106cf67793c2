// AbortController and AbortSignal for bundled code that uses them (injected, module-scoped).
export { AbortController, AbortSignal } from "abort-controller/dist/abort-controller.mjs";
