// Runner side of `invoke`: warm Instances (LRU), invocations of one order key (a source, or one
// run of a workflow) strictly in arrival order, different keys concurrently, each in a context of
// its source's own (contexts.ts).
import { performance } from "node:perf_hooks";
import { AppError } from "../../lib/errors.ts";
import type { EnvText, InvocationError, InvokeReply, InvokeRequest, InvokeResult } from "../protocol.ts";
import { MAX_TURN_WAIT_MS } from "../ipc.ts";
import { getCode, putCode } from "./code-store.ts";
import { DbState } from "./db-state.ts";
import { ContextSlots } from "./contexts.ts";
import { Instance } from "./instance.ts";
import { Invocation, invocationError } from "./invocation.ts";
import { StepLoadError } from "./load/load-workflow.ts";
import { DataStoreWork } from "./data-store-work.ts";
import { askCode, askEnv, askHost, tellResponse, tellTurn } from "./host-asks.ts";
import { getEnv, putEnv } from "./env-store.ts";

/**
 * Warm instances kept per runner (LRU; a busy one is never evicted). Measured with a small
 * component importing axios and using db: each warm instance adds about 1.5 MB to the runner's
 * RSS (isolate, context, runtime, provided modules, component), while a cold start (new isolate,
 * runtime and component compiled from V8's code cache) costs about 5 ms. Evicting is cheap next to
 * a source's interval, memory is not: 128 instances keep a runner near 190 MB on top of its base.
 *
 * Raised to 600 after the timers bench (1,000 sources on a 1 s interval over 2 runners): with 128,
 * nearly every tick cold-started an isolate and the runners fell behind (26% of ticks ran). With
 * 600 every source stays warm and 100% run; the price is about 0.9 GB RSS per runner at 500 warm.
 *
 * Raised to 2,500 once sources of one owner and code shared an isolate (a context each, ~0.35 MB):
 * at 600, 2,000 timer sources on 2 runners evicted and cold-started contexts on every tick, and
 * the churn starved the runners. Instances of distinct code still cost an isolate each; the heap
 * budget below bounds those.
 */
export const MAX_WARM_INSTANCES = 2500;
/**
 * The runner's own bound (the `warmSources` setting, TRIBUTARY_RUNNER_WARM_SOURCES). Many timer
 * sources trade memory for lateness here: 10,000 sources on 15 s over 2 runners ran later ticks
 * at p99 ~1 s with 2,500 warm per runner (3.5 GiB), 88 ms with all warm (4.4 GiB).
 */
let maxWarm = MAX_WARM_INSTANCES;

/**
 * ...and by memory: the warm instances' heaps together stay under this budget (the runner's
 * `warmMemoryMb` setting), so 600 instances that each grew to their 128 MiB limit can't keep a
 * runner at 75 GiB. An instance's heap is measured when it is created, after each of its first
 * invocations, and every few after that.
 */
let warmBudgetBytes = 1024 * 1024 * 1024;

/**
 * A source whose next run is known to be further away than this (a timer's next tick) lets its
 * context go as soon as its run ends: holding ~0.4 MB of RSS until then costs more than starting
 * it again (~1.5 ms of CPU). 100,000 timer sources on the default 900 s interval kept 2,500
 * contexts warm per runner (3.1 GiB in all) for ticks a quarter of an hour apart. The host's
 * warm-up at deploy uses the same horizon (core/flow/timer-warmup.ts).
 */
export const FAR_MS = 2 * 60_000;
const MEASURE_EVERY = 16;

export function setWarmMemoryMb(mb: number): void {
  warmBudgetBytes = mb * 1024 * 1024;
}

export function setWarmSources(n: number): void {
  maxWarm = n;
}

/** warm instances by slot (contexts.ts): a source's first, or one more of a workflow's */
const instances = new Map<string, Instance>();
const contexts = new ContextSlots((slot) => instances.get(slot)?.awaitingHost ?? false);
const chains = new Map<string, Promise<unknown>>();

/**
 * The context each recent run's last step ran in: its next step takes it when it is free, so the
 * steps of a run see the files earlier ones left in /tmp (when it is busy, another is taken).
 * Runs aren't told to have ended here: the oldest are forgotten past MAX_REMEMBERED.
 */
const lastSlots = new Map<string, string>();
const MAX_REMEMBERED = 20_000;

function rememberSlot(order: string, slot: string): void {
  lastSlots.delete(order);
  lastSlots.set(order, slot);
  if (lastSlots.size > MAX_REMEMBERED) lastSlots.delete(lastSlots.keys().next().value!);
}

export function invoke(req: InvokeRequest): Promise<InvokeReply> {
  const order = req.orderKey ?? req.sourceId;
  const previous = chains.get(order) ?? Promise.resolve();
  const result = previous.then(async () => {
    const slot = contexts.claimNow(req.sourceId, lastSlots.get(order)) ?? (await claimAfterWait(req));
    if (slot === undefined) return turnNeverCame();
    if (req.orderKey !== undefined) rememberSlot(order, slot);
    try {
      return await invokeNow(req, slot);
    } finally {
      contexts.release(slot);
    }
  });
  const tail = result.then(
    () => {},
    () => {},
  );
  chains.set(order, tail);
  void tail.then(() => {
    if (chains.get(order) === tail) chains.delete(order);
  });
  return result;
}

/**
 * A context once one is free: the host stops the run's deadline while it waits and starts it when
 * its turn comes (ipc.ts RunnerWaitingTell); undefined past MAX_TURN_WAIT_MS.
 */
async function claimAfterWait(req: InvokeRequest): Promise<string | undefined> {
  const reqId = (req as InvokeRequest & { id?: number }).id;
  if (reqId !== undefined) tellTurn(reqId, "waiting");
  const slot = await contexts.claim(req.sourceId, MAX_TURN_WAIT_MS);
  if (slot !== undefined && reqId !== undefined) tellTurn(reqId, "began");
  return slot;
}

function turnNeverCame(): InvokeReply {
  const message = `waited ${MAX_TURN_WAIT_MS / 60_000} minutes for its turn: the workflow's other runs kept every context busy computing`;
  return { emits: [], db: null, logs: [], emitErrors: [], wallMs: MAX_TURN_WAIT_MS, error: invocationError("TimeoutError", message, "") };
}

function check(req: InvokeRequest): void {
  const l = req.limits;
  const ok =
    typeof req.sourceId === "string" &&
    (req.orderKey === undefined || typeof req.orderKey === "string") &&
    typeof req.codeHash === "string" &&
    ["run", "deploy", "activate", "deactivate", "options", "reload", "eventNames"].includes(req.kind) &&
    (req.eventJson === undefined || typeof req.eventJson === "string") &&
    (req.envVersion === undefined || typeof req.envVersion === "string") &&
    (req.warmOnly === undefined || typeof req.warmOnly === "boolean") &&
    (req.respondNow === undefined || typeof req.respondNow === "boolean") &&
    (req.dataStores === undefined || (Array.isArray(req.dataStores) && req.dataStores.every((s) => typeof s === "string"))) &&
    typeof l === "object" &&
    l !== null &&
    [l.timeoutMs, l.memoryMb, l.maxEmits, l.maxEventBytes, l.maxLogLines, l.maxLogLineBytes, l.maxDbBytes, l.maxResultBytes].every(
      (n) => typeof n === "number" && n > 0,
    );
  if (!ok) throw new AppError("internal", "malformed invoke request");
}

function evict(sourceId: string): void {
  instances.get(sourceId)?.dispose();
  instances.delete(sourceId);
  warmBytesKnown = undefined;
}

/**
 * The warm instances' heaps together, summed again only once an instance came, went or was
 * measured since: trimWarm asks on every invocation, and summing 1,000 contexts each time was
 * a loop over all of them per step.
 */
let warmBytesKnown: number | undefined;
function warmBytes(): number {
  if (warmBytesKnown !== undefined) return warmBytesKnown;
  let total = 0;
  for (const inst of instances.values()) total += inst.heapBytes;
  return (warmBytesKnown = total);
}

// Past a bound, the instances needed latest go first: a timer source's next tick is known (the
// host sends it); any other source is expected again after as long as it has been idle. Plain LRU
// is the worst choice for timers: with more sources than room, cycling through them evicts exactly
// the one due next, and every tick started cold. Keeping those due soonest is optimal (Belady)
// and keeps a steady share warm. Trimmed to 95% of the bounds at once, so the sort is rare.
function trimWarm(keep: string): void {
  let bytes = warmBytes();
  if (instances.size <= maxWarm && bytes <= warmBudgetBytes) return;
  const now = Date.now();
  const expected = (i: Instance) => i.nextUseAt ?? now + (now - i.lastUsedAt);
  // the instance about to run (or that just ran) stays: evicting it would end its own invocation
  const idle = [...instances].filter(([id, inst]) => !inst.busy && !contexts.claimed(id) && id !== keep).sort((a, b) => expected(b[1]) - expected(a[1]));
  for (const [sourceId, inst] of idle) {
    if (instances.size <= maxWarm * 0.95 && bytes <= warmBudgetBytes * 0.95) return;
    bytes -= inst.heapBytes;
    evict(sourceId);
  }
}

function loadError(e: unknown, timeoutMs: number, memoryMb: number): InvocationError {
  const message = e instanceof Error ? e.message : String(e);
  const error = /timed out/.test(message)
    ? invocationError("TimeoutError", `invocation timed out after ${timeoutMs} ms`, "")
    : /out of memory/.test(message)
      ? invocationError("OutOfMemoryError", `out of memory (limit ${memoryMb} MB)`, "")
      : invocationError("Error", message, "");
  if (e instanceof StepLoadError) Object.assign(error, { cellId: e.cellId, code: error.name });
  return error;
}

/** `slot`: the warm context (of the request's source) it runs in, held for it until it returns */
async function invokeNow(req: InvokeRequest, slot: string): Promise<InvokeReply> {
  check(req);
  const started = performance.now();
  if (typeof req.code === "string") putCode(req.codeHash, req.code);
  let inst = instances.get(slot);
  if (inst && (inst.dead || inst.codeHash !== req.codeHash || inst.memoryMb !== req.limits.memoryMb)) {
    evict(slot);
    inst = undefined;
  }
  const reqId = (req as InvokeRequest & { id?: number }).id ?? 0;
  let code = inst ? undefined : getCode(req.codeHash);
  if (!inst && code === undefined) {
    // Asked for while this run holds its source's place: answering needCode instead let the
    // source's runs behind it (one finding the code another source brought) run first.
    code = await askCode(reqId, req.codeHash).catch(() => undefined);
    if (code === undefined) return { needCode: true };
    putCode(req.codeHash, code);
  }

  const env = await envOf(reqId, req.envVersion);
  const warm = inst?.warmDb?.epoch === req.dbEpoch ? inst.warmDb.state : undefined;
  const inv = new Invocation(req.limits, (warm ?? DbState.fromObject(req.db)).clone(), env ?? undefined);
  if (req.respondNow) inv.onImmediate = (response) => tellResponse(reqId, response);
  if (req.dataStores && req.dataStores.length > 0) {
    inv.dataStores = new DataStoreWork(req.dataStores, (store, op, key) => askHost(reqId, store, op, key), (n, what) => inv.charge(n, what));
  }
  const result = (error: InvocationError | undefined): InvokeResult => {
    const out: InvokeResult = {
      emits: error ? [] : inv.emits,
      db: !error && inv.dbChanged ? inv.db.toObject() : null,
      logs: inv.finalLogs(),
      emitErrors: inv.emitErrors,
      wallMs: Math.round((performance.now() - started) * 1000) / 1000,
    };
    if (inv.response) out.response = inv.response;
    if (error) out.error = error;
    if (inv.steps.length > 0) out.steps = inv.steps;
    const writes = error ? undefined : inv.dataStores?.writes();
    if (writes) out.dataStores = writes;
    return out;
  };

  if (env === null) return result(invocationError("InternalError", "the service did not send the owner's environment variables", ""));
  if (!inst) {
    try {
      inst = await Instance.create(req.codeHash, code!, req.limits.memoryMb, req.limits.timeoutMs, req.owner, inv.env);
    } catch (e) {
      return result(loadError(e, req.limits.timeoutMs, req.limits.memoryMb));
    }
  }
  if (!instances.has(slot)) warmBytesKnown = undefined;
  instances.delete(slot);
  instances.set(slot, inst);
  inst.lastUsedAt = Date.now();
  inst.nextUseAt = req.nextUseAt;
  trimWarm(slot);
  if (req.warmOnly) return result(undefined);

  // A cold start counts against the invocation's time, as the host's deadline does.
  const remainingMs = Math.max(1, req.limits.timeoutMs - (performance.now() - started));
  const error = await inst.run(req.kind, req.eventJson, req.props ?? {}, inv, req.fetchAllow ?? [], remainingMs);
  if (inst.dead || (req.nextUseAt !== undefined && req.nextUseAt - Date.now() > FAR_MS)) evict(slot);
  else {
    if (!error) inst.warmDb = { epoch: req.dbEpoch, state: inv.db };
    // measured after each of its first runs (where heaps grow) and every few after: ~4 µs a time
    const runs = ++inst.runs;
    if (runs <= MEASURE_EVERY || runs % MEASURE_EVERY === 0) {
      inst.measure();
      warmBytesKnown = undefined;
      trimWarm(slot);
    }
  }
  return result(error);
}

// The text of the variables the request names: kept here per version, asked for (while the run
// holds its source's place, as its code is) when this runner doesn't hold it. null: not to be had.
async function envOf(reqId: number, version: string | undefined): Promise<EnvText | undefined | null> {
  if (version === undefined) return undefined;
  let json = getEnv(version);
  if (json === undefined) {
    json = await askEnv(reqId, version).catch(() => undefined);
    if (json === undefined) return null;
    putEnv(version, json);
  }
  return { version, json };
}
