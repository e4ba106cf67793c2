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

export function callAsync(op, ...args) {
  return new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    try {
      call("async", id, op, ...args);
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
