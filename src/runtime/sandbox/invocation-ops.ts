// The invocation ops: what the isolate may ask of the runner while a component is invoked, each
// op's arguments a named tuple and its handler one entry of INVOCATION_OPS. The isolate's side
// lists the same ops and arguments (isolate/host.js, InvocationOpArgs). The isolate is hostile:
// an argument is what it claims to be only once its handler has checked it.
import type { InvocationError } from "../protocol.ts";
import { ASK } from "./data-store-work.ts";
import { forIsolate, parseSandboxRequest, sandboxFetch } from "./fetch.ts";
import { withoutHostPaths } from "./host-paths.ts";
import { invocationError, type Invocation } from "./invocation.ts";
import type { Running } from "./running.ts";
import { MAX_TIMER_MS } from "../../lib/clock.ts";

const MAX_TIMERS = 1000;
const MAX_CONCURRENT_FETCHES = 8;
/** cellIds and error codes are short ids; the isolate can't make them long */
const MAX_ID_CHARS = 200;

/**
 * What the isolate says an argument is: unknown to the runner until its handler checks it. The
 * type named is the isolate's intent, for the reader; TypeScript sees `unknown`.
 */
type Claimed<_Meant> = unknown;

/** op → its arguments, in the order the isolate passes them */
export type InvocationOpArgs = {
  /** console output; answers whether later lines are still kept (a null text: one more dropped) */
  log: [level: Claimed<string>, text: Claimed<string | null>];
  /** $emit calls the isolate queued: [json, id, name, summary, ts] one after another */
  emits: [flat: Claimed<unknown[]>];
  /** an event that could not be emitted */
  emitError: [message: Claimed<string>, stack: Claimed<string>];
  /** this.db.get: answers the value's JSON text, or undefined */
  dbGet: [key: Claimed<string>];
  /** this.db.set: undefined json deletes the key */
  dbSet: [key: Claimed<string>, json: Claimed<string | undefined>];
  /** this.http.respond / $.respond / a props form's answer */
  respond: [status: Claimed<number>, headers: Claimed<object>, kind: Claimed<"none" | "text" | "json">, body: Claimed<string | undefined>, immediate: Claimed<boolean>];
  /** setTimeout / setInterval: its callback comes back as an entry (fireTimer) */
  timer: [id: Claimed<number>, ms: Claimed<number>, repeat: Claimed<boolean>];
  clearTimer: [id: Claimed<number>];
  /** a call answered later through settle(id): a fetch, a data store read, a socket's wait */
  async: [id: Claimed<number>, kind: Claimed<"fetch" | "store" | "socket">, ...request: unknown[]];
  /** a socket call answered at once: [what, socket id, ...args] (sockets/sockets.ts, now) */
  socket: [what: Claimed<string>, ...args: unknown[]];
  /** a workflow step starts */
  step: [cellId: Claimed<string>];
  /** a data store call answered at once ({v}), or null: it needs a read (async "store") */
  storeNow: [store: Claimed<string>, op: Claimed<string>, ...args: unknown[]];
  /** $.send.http / $.send.email in a step */
  send: [kind: Claimed<"http" | "email">, json: Claimed<string>];
  /** the step that started last ended: its value, exports and $.flow request as JSON text */
  stepEnd: [status: Claimed<"succeeded" | "failed" | "exited">, returnValue: Claimed<string | undefined>, exports: Claimed<string | undefined>, summary: Claimed<string | undefined>, flow: Claimed<string | undefined>];
  /** the invocation's outcome (null: success) and the emits that waited for it */
  done: [error: Claimed<object | null>, emits: Claimed<unknown[]>];
};

export type InvocationOp = keyof InvocationOpArgs;

type InvocationOpHandlers = { [Op in InvocationOp]: (running: Running, ...args: InvocationOpArgs[Op]) => unknown };

export const INVOCATION_OPS: InvocationOpHandlers = {
  log: (running, level, text) => running.inv.log(level, text),
  emits: (running, flat) => queueEmits(running.inv, flat),
  emitError: (running, message, stack) => running.inv.emitError(message, stack),
  dbGet: (running, key) => running.inv.dbGet(key),
  dbSet: (running, key, json) => running.inv.dbSet(key, json),
  respond: (running, status, headers, kind, body, immediate) => running.inv.respond(status, headers, kind, body, immediate),
  timer: startTimer,
  clearTimer(running, id) {
    const timers = running.inv.timers;
    clearTimeout(timers.get(id as number));
    timers.delete(id as number);
  },
  async(running, id, kind, ...request) {
    if (kind === "store") return startStoreCall(running, id, request);
    if (kind === "socket") return settleLater(running, Number(id), running.inv.sockets(running.fetchAllow).ask(request));
    if (kind !== "fetch") throw new Error(`unknown async host call "${String(kind)}"`);
    return startFetch(running, id, request[0]);
  },
  socket: (running, ...socketCall) => running.inv.sockets(running.fetchAllow).now(socketCall),
  step(running, cellId) {
    running.cellId = typeof cellId === "string" ? cellId.slice(0, MAX_ID_CHARS) : undefined;
    if (running.cellId !== undefined) running.inv.stepStart(running.cellId);
  },
  storeNow(running, store, op, ...args) {
    const work = running.inv.dataStores;
    if (!work) throw new TypeError("this component's props name no data store");
    const value = work.callNow(store, op, args);
    return value === ASK ? null : { v: value };
  },
  send: (running, kind, json) => running.inv.send(kind, json),
  stepEnd: (running, status, returnValue, exports, summary, flow) => running.inv.stepEnd(status, returnValue, exports, summary, flow),
  done(running, error, emits) {
    // the emits that waited for the end (isolate/invoke.js); one the runner refuses fails the run
    let refused: InvocationError | undefined;
    try {
      queueEmits(running.inv, emits);
    } catch (e) {
      // its name and message: the runner's own stack is nobody's business
      refused = invocationError(e instanceof Error ? e.name : "Error", e instanceof Error ? e.message : String(e), "");
    }
    running.outcome = error !== null ? reportedError(error) : (refused ?? null);
    // told, not called (isolate/host.js): it may come after the entry that sent it has ended
    running.control.endIfSettled();
  },
};

/** Runs invocation op `op` for the invocation running now; outside an invocation only logging is quiet. */
export function runInvocationOp(running: Running | undefined, op: string, args: unknown[]): unknown {
  if (!running || running.ended) {
    if (op === "log") return false;
    throw new Error(`${op} is only available while the component is invoked`);
  }
  // own keys only: "constructor" or "toString" is no op
  if (!Object.hasOwn(INVOCATION_OPS, op)) throw new Error(`unknown host call "${op}"`);
  const handler = INVOCATION_OPS[op as InvocationOp] as (running: Running, ...args: unknown[]) => unknown;
  return handler(running, ...args);
}

/** emits as the isolate queues them: [json, id, name, summary, ts] one after another */
function queueEmits(inv: Invocation, flat: unknown): void {
  if (!Array.isArray(flat) || flat.length % 5 !== 0) throw new TypeError("malformed emit");
  for (let i = 0; i < flat.length; i += 5) {
    inv.countEmit();
    inv.emit(flat[i], flat[i + 1], flat[i + 2], flat[i + 3], flat[i + 4]);
  }
}

function reportedError(raw: unknown): InvocationError {
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const error = invocationError(fields.name, fields.message, fields.stack);
  // Set for a failed workflow step (isolate/workflow.js); checked, as everything the isolate says.
  if (typeof fields.cellId === "string") {
    error.cellId = fields.cellId.slice(0, MAX_ID_CHARS);
    error.code = typeof fields.code === "string" && fields.code ? fields.code.slice(0, MAX_ID_CHARS) : error.name;
  }
  return error;
}

function startTimer(running: Running, id: unknown, ms: unknown, repeat: unknown): void {
  if (typeof id !== "number" || typeof ms !== "number") throw new TypeError("bad timer");
  const timers = running.inv.timers;
  if (timers.size >= MAX_TIMERS) throw new RangeError(`more than ${MAX_TIMERS} pending timers`);
  const delay = Math.min(Math.max(0, ms), MAX_TIMER_MS);
  const fire = () => {
    if (repeat !== true) timers.delete(id);
    else if (running.firing.has(id)) return;
    if (running.ended) return;
    if (repeat === true) running.firing.add(id);
    running.control.fireTimer(id, () => running.firing.delete(id));
  };
  timers.set(id, repeat === true ? setInterval(fire, Math.max(1, delay)) : setTimeout(fire, delay));
}

/** A data store read ([store, op, ...args]) that needs the host; its answer settles the sandbox's promise. */
function startStoreCall(running: Running, id: unknown, storeCall: unknown[]): void {
  if (typeof id !== "number") throw new TypeError("bad async call");
  const work = running.inv.dataStores;
  if (!work || typeof storeCall[0] !== "string") throw new TypeError("this component's props name no data store");
  settleLater(running, id, work.callRead(storeCall[0], storeCall[1], storeCall.slice(2)));
}

function settleLater(running: Running, id: number, answer: Promise<unknown>): void {
  answer
    .then(
      (value) => [true, value] as const,
      (e: unknown) => {
        const err = e as Error;
        const name = err?.name === "RangeError" || err?.name === "TypeError" ? err.name : "Error";
        return [false, { name, message: withoutHostPaths(String(err?.message ?? e)) }] as const;
      },
    )
    .then(([ok, value]) => {
      if (!running.ended) running.control.settle(id, ok, value);
    });
}

function startFetch(running: Running, id: unknown, rawRequest: unknown): void {
  if (typeof id !== "number") throw new TypeError("bad async call");
  if (running.fetches >= MAX_CONCURRENT_FETCHES) throw new TypeError(`more than ${MAX_CONCURRENT_FETCHES} fetches at once`);
  const req = parseSandboxRequest(rawRequest);
  running.fetches++;
  sandboxFetch(req, running.fetchAllow, running.inv.signal)
    .then(
      (res) => [true, forIsolate(res)] as const,
      (e: unknown) => {
        const err = e as Error & { cause?: Error };
        const detail = err?.cause?.message ? `${err.message}: ${err.cause.message}` : String(err?.message ?? e);
        return [false, { name: err?.name === "RangeError" ? "RangeError" : "TypeError", message: withoutHostPaths(detail) }] as const;
      },
    )
    .then(([ok, value]) => {
      running.fetches--;
      if (!running.ended) running.control.settle(id, ok, value);
    });
}
