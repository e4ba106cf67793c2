// Runs INSIDE the isolate: AbortController and AbortSignal, as the web platform has them (the
// parts code uses: abort(reason), aborted, reason, onabort, "abort" listeners, throwIfAborted,
// AbortSignal.abort/timeout/any). V8 has no EventTarget: a signal keeps its own listeners. Its
// default reasons are DOMExceptions named AbortError and TimeoutError, as in Node.
import { domException } from "./dom-exception.js";

const { apply } = Reflect;
const TOKEN = Symbol("AbortSignal");
/** aborts a signal: AbortController#abort, and the static helpers */
let abortSignal;

let classes;

/** The two classes, made the first time code names either (a context that never does pays nothing). */
export function abortClasses() {
  if (classes) return classes;
  class AbortSignal {
    #aborted = false;
    #reason = undefined;
    #listeners = [];
    onabort = null;

    constructor(token) {
      if (token !== TOKEN) throw new TypeError("Illegal constructor");
    }

    get aborted() {
      return this.#aborted;
    }

    get reason() {
      return this.#reason;
    }

    throwIfAborted() {
      if (this.#aborted) throw this.#reason;
    }

    addEventListener(type, listener, options) {
      if (type !== "abort" || listener == null || this.#listeners.some((l) => l.listener === listener)) return;
      this.#listeners.push({ listener, once: typeof options === "object" && options !== null && options.once === true });
    }

    removeEventListener(type, listener) {
      if (type === "abort") this.#listeners = this.#listeners.filter((l) => l.listener !== listener);
    }

    dispatchEvent(event) {
      const e = { type: event?.type ?? "abort", target: this, currentTarget: this, defaultPrevented: false };
      if (e.type !== "abort") return true;
      if (typeof this.onabort === "function") apply(this.onabort, this, [e]);
      for (const l of this.#listeners.slice()) {
        if (l.once) this.removeEventListener("abort", l.listener);
        if (typeof l.listener === "function") apply(l.listener, this, [e]);
        else if (typeof l.listener?.handleEvent === "function") l.listener.handleEvent(e);
      }
      return true;
    }

    static {
      abortSignal = (signal, reason) => {
        if (signal.#aborted) return;
        signal.#aborted = true;
        signal.#reason = reason === undefined ? domException("This operation was aborted", "AbortError") : reason;
        signal.dispatchEvent({ type: "abort" });
      };
    }

    static abort(reason) {
      const signal = new AbortSignal(TOKEN);
      abortSignal(signal, reason);
      return signal;
    }

    static timeout(ms) {
      const signal = new AbortSignal(TOKEN);
      globalThis.setTimeout(() => abortSignal(signal, domException("The operation was aborted due to timeout", "TimeoutError")), ms);
      return signal;
    }

    static any(signals) {
      const signal = new AbortSignal(TOKEN);
      for (const s of signals) {
        if (s.aborted) {
          abortSignal(signal, s.reason);
          return signal;
        }
      }
      for (const s of signals) s.addEventListener("abort", () => abortSignal(signal, s.reason), { once: true });
      return signal;
    }

    get [Symbol.toStringTag]() {
      return "AbortSignal";
    }
  }

  class AbortController {
    #signal = new AbortSignal(TOKEN);

    get signal() {
      return this.#signal;
    }

    abort(reason) {
      abortSignal(this.#signal, reason);
    }

    get [Symbol.toStringTag]() {
      return "AbortController";
    }
  }
  classes = { AbortController, AbortSignal };
  return classes;
}
