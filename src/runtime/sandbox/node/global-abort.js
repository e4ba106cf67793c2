// AbortController and AbortSignal for bundled code that uses them: the sandbox's own globals
// (isolate/abort.js), so the component and its packages share one class of each.
export const { AbortController, AbortSignal } = globalThis;
