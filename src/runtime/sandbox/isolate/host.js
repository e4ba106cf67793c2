// Runs INSIDE the isolate. The one door to the runner: a synchronous call (copying arguments and
// result both ways) and, on top of it, calls the runner answers later through settle().
let ref;
let next = 1;
/** whether the entry running now came on the runner's own thread (sandbox/entry-mode.ts) */
let direct = false;
const pending = new Map();
const { apply } = Reflect;

export function connect(reference) {
  ref = reference;
}

/**
 * The invocation ops: what the runner does for the component while it is invoked, each op's
 * arguments in the order call() and tell() pass them. The runner's side holds the same list
 * (sandbox/invocation-ops.ts, InvocationOpArgs) and checks every argument: nothing sent from here
 * is trusted. The ops of the globals (url, encode, digest, ...) need no invocation: sandbox/host-ops.ts.
 *
 * @typedef {object} InvocationOpArgs
 * @property {[level: string, text: string | null]} log console output (runtime.js); answers whether later lines are still kept; a null text counts one more dropped
 * @property {[flat: unknown[]]} emits $emit calls queued (invoke.js): [json, id, name, summary, ts] one after another
 * @property {[message: string, stack: string]} emitError an event that could not be emitted (invoke.js)
 * @property {[key: string]} dbGet this.db.get (this.js): answers the value's JSON text, or undefined
 * @property {[key: string, json: string | undefined]} dbSet this.db.set (this.js): undefined deletes the key
 * @property {[status: number, headers: Record<string, string>, kind: "none" | "text" | "json", body: string | undefined, immediate: boolean]} respond this.http.respond, $.respond (this.js), a props form's answer (dynamic-props.js)
 * @property {[id: number, ms: number, repeat: boolean]} timer setTimeout, setInterval (runtime.js): the callback comes back through fireTimer(id)
 * @property {[id: number]} clearTimer clearTimeout, clearInterval (runtime.js)
 * @property {[id: number, kind: "fetch" | "store" | "socket", ...request: unknown[]]} async made by callAsync below, answered through settle(id): fetch (fetch.js), a data store read (this.js), a socket's wait (provided/sockets.js)
 * @property {[what: string, ...args: unknown[]]} socket a socket call answered at once (provided/sockets.js): write, end, destroy, noDelay, keepAlive, cipher
 * @property {[cellId: string]} step a workflow step starts (workflow.js)
 * @property {[store: string, op: string, ...args: unknown[]]} storeNow a data store call (this.js): answers {v}, or null when it needs a read (async "store")
 * @property {[kind: "http" | "email", json: string]} send $.send.http, $.send.email (workflow.js)
 * @property {[status: "succeeded" | "failed" | "exited", returnValue: string | undefined, exports: string | undefined, summary: string | undefined, flow: string | undefined]} stepEnd the step that started last ended (workflow.js), its values as JSON text
 * @property {[error: object | null, emits: unknown[]]} done the invocation's outcome, null for success, and the emits that waited for it (invoke.js)
 */

/**
 * A call the runner answers now.
 * @param {string} op an invocation op (InvocationOpArgs above) or one of the globals' (sandbox/host-ops.ts)
 * @param {...unknown} args that op's arguments
 */
export function call(op, ...args) {
  return ref.applySync(undefined, [op, ...args], { arguments: { copy: true }, result: { copy: true } });
}

/** Every entry says how it came: told calls of a synchronous entry are plain calls (below). */
export function entered(sync) {
  direct = sync === true;
}

/**
 * A call whose answer nobody waits for: the isolate's thread goes on at once instead of waiting
 * for the runner's to take the call (a futex wait and wake saved). Calls keep their order, and the
 * runner's errors are dropped: for "done" and "step", which the runner checks and never fail.
 * In an entry on the runner's own thread there is no wait to save, and a told call would only
 * reach the runner after the entry's end (a timeout during a step would miss its step): called.
 */
export function tell(op, ...args) {
  if (!direct) return void ref.applyIgnored(undefined, [op, ...args], { arguments: { copy: true } });
  try {
    call(op, ...args);
  } catch {
    // dropped, as a told call's are
  }
}

/**
 * A call the runner answers later (the "async" op).
 * @param {"fetch" | "store" | "socket"} kind what is asked (InvocationOpArgs' async above)
 * @param {...unknown} request its arguments
 * @returns {Promise<unknown>} settled when the runner's answer enters through settle()
 */
export function callAsync(kind, ...request) {
  return new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    try {
      call("async", id, kind, ...request);
    } catch (e) {
      pending.delete(id);
      reject(e);
    }
  });
}

const ERRORS = { TypeError, RangeError, SyntaxError };

/** Called by the runner (as an entry into the isolate) when an async call finishes. */
export function settle(id, ok, value, sync) {
  entered(sync);
  const p = pending.get(id);
  if (!p) return;
  pending.delete(id);
  if (ok) return apply(p.resolve, undefined, [value]);
  const E = ERRORS[value?.name] ?? Error;
  const error = new E(String(value?.message ?? "failed"));
  if (value?.code) error.code = value.code;
  apply(p.reject, undefined, [error]);
}

/** Calls of an ended invocation are never answered; forget them so they can be collected. */
export function forgetPending() {
  pending.clear();
}
