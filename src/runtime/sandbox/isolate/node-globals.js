// Runs INSIDE the isolate: the globals Node code takes for granted, in every context whether the
// code imports anything or not: `process` (process.js), `Buffer`, `AbortController` and
// `AbortSignal` (abort.js), `DOMException` (dom-exception.js), `ReadableStream` and the other
// WHATWG streams (web-streams.js). Made
// the first time code touches them, so a context that never does pays nothing (a new context is
// what many timer sources pay for, every tick): Buffer is the `buffer` package (64 KB of source,
// ~0.5 ms to evaluate), which the runner hands over only then (host-ops.ts, bufferSource); the
// streams are web-streams-polyfill, handed over the same way.
import { call } from "./host.js";
import { processObject } from "./process.js";
import { abortClasses } from "./abort.js";
import { domExceptionClass } from "./dom-exception.js";
import { STREAM_GLOBALS, webStreams } from "./web-streams.js";

const { defineProperty } = Object;
// taken before any component code runs: what it does to the global eval can't reach this
const evaluate = globalThis.eval;

function loadBuffer() {
  const exports = evaluate(call("bufferSource"))();
  return exports.Buffer;
}

/** `name` on `g`, made by `make` when first read; assigning it first (a polyfill) just sets it. */
function lazy(g, name, make) {
  const settle = (value) => defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  defineProperty(g, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = make();
      settle(value);
      return value;
    },
    set: settle,
  });
}

export function installNodeGlobals(g) {
  lazy(g, "process", processObject);
  lazy(g, "Buffer", loadBuffer);
  lazy(g, "AbortController", () => abortClasses().AbortController);
  lazy(g, "AbortSignal", () => abortClasses().AbortSignal);
  lazy(g, "DOMException", domExceptionClass);
  for (const name of STREAM_GLOBALS) lazy(g, name, () => webStreams()[name]);
}
