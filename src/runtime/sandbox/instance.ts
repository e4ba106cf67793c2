// A warm component: one isolate and context with the runtime installed and the component
// evaluated, reused across the invocations of one source. Every entry into the isolate (start,
// timer callbacks, fetch results) is a call, async or on this thread (entry-mode.ts), whose
// failure is caught here: that is how an unhandled rejection or a throwing timer callback fails
// the invocation instead of the runner (isolated-vm throws a rejection nobody handled out of the
// call during which it happened).
import ivm from "isolated-vm";
import type { EnvText, InvocationError, InvocationKind } from "../protocol.ts";
import type { DbState } from "./db-state.ts";
import { hostReference } from "./host-reference.ts";
import { Invocation, invocationError } from "./invocation.ts";
import { loadCode } from "./load/load-workflow.ts";
import { prepareContext } from "./load/runtime-modules.ts";
import { createLimits } from "./sandbox-errors.ts";
import { lineMapOf, mapStack, withoutRuntimeFrames, type LineMap } from "./stack-map.ts";
import { parseWorkflowCode } from "../workflow-code.ts";
import { isolateFor, type PooledIsolate } from "./isolate-pool.ts";
import { EntryModes } from "./entry-mode.ts";
import { IsolateCalls, POOLED } from "./load/isolate-calls.ts";
import { runInvocationOp } from "./invocation-ops.ts";
import type { Running } from "./running.ts";

/** isolates ended on purpose (a timeout): any other disposal of an isolate was V8's, out of memory */
const endedOnPurpose = new WeakSet<ivm.Isolate>();
/** this runner's choice of entry per code hash: on its own thread once quick, else the pool's */
export const entryModes = new EntryModes();

/**
 * Entries into the isolate waiting to run (timer callbacks, fetch results). A repeating timer
 * never queues a second entry while its last one waits, so this bounds only a flood of distinct
 * callbacks; past it the invocation fails instead of the runner's memory growing without end.
 */
const MAX_PENDING_ENTRIES = 2000;

export class Instance {
  readonly codeHash: string;
  readonly memoryMb: number;
  readonly isolate: ivm.Isolate;
  /** the db state after the last successful invocation, and the host's epoch it belongs to */
  warmDb: { epoch: number; state: DbState } | undefined;
  /** the isolate's heap as last measured (bytes): what keeping it warm costs */
  heapBytes = 0;
  /** invocations run, so the heap is measured every few of them */
  runs = 0;
  /** when it last ran, and when it is expected to run next (a timer's next tick), ms */
  lastUsedAt = Date.now();
  nextUseAt: number | undefined;
  #refs: Record<"invoke" | "settle" | "fireTimer", ivm.Reference> | undefined;
  #current: Running | undefined;
  readonly #pooled: PooledIsolate;
  #context: ivm.Context | undefined;
  #host: ivm.Reference | undefined;
  #released = false;
  /** the version of process.env its context holds: a run of another version brings the text (isolate/process.js) */
  #envVersion: string | undefined;
  /** the code it runs: a bundle's map turns an error's positions into the user's lines */
  #code = "";
  /** the maps of its code (by step cellId for a workflow, "" for a component), read when first needed */
  readonly #maps = new Map<string, LineMap | null>();

  private constructor(codeHash: string, memoryMb: number, owner: string | undefined) {
    this.codeHash = codeHash;
    this.memoryMb = memoryMb;
    this.#pooled = isolateFor(owner, codeHash, memoryMb);
    this.isolate = this.#pooled.isolate;
  }

  /**
   * Evaluates the component; throws AppError("invalid_component") like analysis does. With an
   * `owner`, the context goes into an isolate shared with that owner's other sources of this code.
   * `env`: process.env for the component's top level (the owner's variables).
   */
  static async create(codeHash: string, code: string, memoryMb: number, timeoutMs: number, owner?: string, env?: EnvText): Promise<Instance> {
    const inst = new Instance(codeHash, memoryMb, owner);
    [inst.#code, inst.#envVersion] = [code, env?.version];
    const sync = entryModes.syncStart(codeHash);
    const calls = sync ? IsolateCalls.onThread() : POOLED;
    // its own time on the thread; a pooled start's time in its isolate (see EntryModes.started)
    const cpuAt = inst.isolate.cpuTime;
    const took = () => (sync ? calls.onThreadMs : inst.dead ? Infinity : Number(inst.isolate.cpuTime - cpuAt) / 1e6);
    try {
      const host = hostReference((op, args) => runInvocationOp(inst.#current, op, args));
      inst.#host = host;
      const prepared = await prepareContext(inst.isolate, host, calls, env);
      inst.#context = prepared.context;
      const { runtime } = prepared;
      const component = await loadCode(inst.isolate, prepared, code, createLimits(timeoutMs, memoryMb), codeHash, calls);
      const bind = await calls.get(runtime, "bind");
      inst.#refs = {
        invoke: await calls.apply<ivm.Reference>(bind, [component.derefInto()], { result: { reference: true } }),
        settle: await calls.get(runtime, "settle"),
        fireTimer: await calls.get(runtime, "fireTimer"),
      };
      entryModes.started(codeHash, took(), sync);
      inst.measure();
      return inst;
    } catch (e) {
      entryModes.started(codeHash, took(), sync);
      inst.dispose();
      throw e;
    }
  }

  /** this source's part of its isolate's heap (an isolate shared by n sources: a nth each) */
  measure(): number {
    if (this.dead) return 0;
    const h = this.isolate.getHeapStatisticsSync();
    this.heapBytes = (h.total_heap_size + h.externally_allocated_size) / Math.max(1, this.#pooled.contexts());
    return this.heapBytes;
  }

  get dead(): boolean {
    return this.#released || this.isolate.isDisposed;
  }

  get busy(): boolean {
    return this.#current !== undefined;
  }

  /** its invocation waits on the host (a fetch, a timer): the isolate's thread is free meanwhile */
  get awaitingHost(): boolean {
    return this.#current !== undefined && this.#current.entries === 0;
  }

  /** Lets the source go cold: its context goes, and the isolate with its last context. */
  dispose(): void {
    if (this.#released) return;
    this.#released = true;
    // The context's references both ways go too: the host callback's closure holds this instance,
    // which holds references into the context, a cycle across two heaps no collector can see. In a
    // shared isolate the context's memory would never come back.
    if (!this.isolate.isDisposed) {
      for (const ref of [...Object.values(this.#refs ?? {}), this.#host]) {
        try {
          ref?.release();
        } catch {
          // released with its isolate already
        }
      }
      this.#context?.release();
    }
    this.#refs = undefined;
    this.#host = undefined;
    this.#pooled.release();
  }

  /** Ends the isolate (whatever it runs, its state is unknown now), and with it any source sharing it. */
  #kill(): void {
    endedOnPurpose.add(this.isolate);
    if (!this.isolate.isDisposed) this.isolate.dispose();
    this.dispose();
  }

  /** Runs one invocation to its end: resolves with its error, if any; never rejects. */
  run(
    kind: InvocationKind,
    eventJson: string | undefined,
    props: Record<string, unknown>,
    inv: Invocation,
    fetchAllow: string[],
    remainingMs: number,
  ): Promise<InvocationError | undefined> {
    return new Promise((resolve) => {
      const running: Running = {
        inv,
        fetchAllow,
        deadline: Date.now() + remainingMs,
        entries: 0,
        firing: new Set(),
        fetches: 0,
        ended: false,
        finish: resolve,
        // the refs are read when an op answers: a context let go since (a timeout) has none
        control: {
          settle: (id, ok, value) => this.#enter(running, this.#refs?.settle, [id, ok, value]),
          fireTimer: (id, then) => this.#enter(running, this.#refs?.fireTimer, [id], then),
          endIfSettled: () => this.#endIfSettled(running),
        },
      };
      this.#current = running;
      running.timer = setTimeout(() => {
        this.#end(running, this.#timeoutError(running));
        // Its context goes, with whatever it waits for; code still running in it is stopped by
        // the entry's own timeout. The isolate (shared with siblings) stays.
        this.dispose();
      }, Math.ceil(remainingMs));
      const envJson = inv.env?.version === this.#envVersion ? undefined : inv.env?.json;
      this.#envVersion = inv.env?.version;
      const args = [kind, eventJson, JSON.stringify(props ?? {}), JSON.stringify(inv.limits), inv.env?.version, envJson];
      this.#enter(running, this.#refs?.invoke, args);
    });
  }

  #timeoutError(running: Running): InvocationError {
    return invocationError("TimeoutError", `invocation timed out after ${running.inv.limits.timeoutMs} ms`, "");
  }

  #enter(running: Running, ref: ivm.Reference | undefined, args: unknown[], then?: () => void): void {
    if (!ref) {
      // the context was let go (a timeout): nothing more runs in it
      this.#end(running, this.#timeoutError(running));
      return;
    }
    if (running.entries >= MAX_PENDING_ENTRIES) {
      const message = `more than ${MAX_PENDING_ENTRIES} callbacks waiting to run (a timer or fetch flood)`;
      this.#end(running, invocationError("RangeError", message, ""));
      return;
    }
    running.entries++;
    const timeout = Math.max(1, Math.ceil(running.deadline - Date.now()));
    const sync = entryModes.sync(this.codeHash);
    const startedAt = performance.now();
    const isolateWall = sync ? 0n : this.isolate.wallTime;
    let entered: Promise<unknown>;
    try {
      const opts = { arguments: { copy: true }, timeout } as const;
      // the entry's last argument: how it came (isolate/host.js, tell)
      const withMode = [...args, sync];
      entered = sync ? Promise.resolve(ref.applySync(undefined, withMode, opts)) : ref.apply(undefined, withMode, opts);
    } catch (e) {
      entered = Promise.reject(e);
    }
    // What the entry would hold the runner's thread for: a synchronous one's own time; an async
    // one's time in the isolate (host calls included, the wait for a pool thread not: under load
    // that wait is most of its wall time, and it is what entering synchronously saves).
    const syncMs = sync ? performance.now() - startedAt : 0;
    const took = () => (sync ? syncMs : this.isolate.isDisposed ? Infinity : Number(this.isolate.wallTime - isolateWall) / 1e6);
    entered.then(
      () => {
        running.entries--;
        entryModes.took(this.codeHash, took(), sync);
        then?.();
        this.#endIfSettled(running);
      },
      (e: unknown) => {
        running.entries--;
        then?.();
        const error = this.#entryError(running, e);
        if (error.name === "TimeoutError" || error.name === "OutOfMemoryError") entryModes.stalled(this.codeHash, sync);
        else entryModes.took(this.codeHash, took(), sync);
        this.#end(running, error);
      },
    );
  }

  #entryError(running: Running, e: unknown): InvocationError {
    const message = e instanceof Error ? e.message : String(e);
    if ((this.isolate.isDisposed && !endedOnPurpose.has(this.isolate)) || /memory limit/i.test(message)) {
      this.#kill();
      return invocationError("OutOfMemoryError", `out of memory (limit ${this.memoryMb} MB)`, "");
    }
    if (/execution timed out/i.test(message)) {
      // V8 stopped the script; the isolate is sound, this source's context is not
      this.dispose();
      return this.#timeoutError(running);
    }
    if (this.isolate.isDisposed) {
      // ended by this source's own deadline, or by another source's sharing the isolate
      return running.ended ? this.#timeoutError(running) : invocationError("Error", "the run was cut short: another source of this component, sharing its sandbox, timed out or ran out of memory", "");
    }
    // The runner's own frames after the boundary are nobody's business.
    const stack = e instanceof Error && typeof e.stack === "string" ? e.stack.split(/\n\s*at \(<isolated-vm boundary>\)/)[0] : "";
    return invocationError(e instanceof Error ? e.name : "Error", message, stack);
  }

  /** A run is over once its outcome ("done") has come and no entry into it is under way, in either order. */
  #endIfSettled(running: Running): void {
    if (running.outcome !== undefined && running.entries === 0) this.#end(running, running.outcome ?? undefined);
  }

  #end(running: Running, error: InvocationError | undefined): void {
    if (running.ended) return;
    running.ended = true;
    clearTimeout(running.timer);
    running.inv.end();
    if (this.#current === running) this.#current = undefined;
    // A timeout, OOM or stray rejection during a workflow step is that step's failure.
    if (error && running.cellId !== undefined && error.cellId === undefined) {
      error = { ...error, cellId: running.cellId, code: error.code ?? error.name };
    }
    if (error?.stack) {
      const stack = error.stack.includes("component.mjs:") ? mapStack(error.stack, this.#mapOf(error.cellId)) : error.stack;
      error = { ...error, stack: withoutRuntimeFrames(stack) };
    }
    running.finish(error);
  }

  /** the map of the code an error's stack is in: a workflow's failing step's, a component's own */
  #mapOf(cellId: string | undefined): LineMap | null {
    const key = cellId ?? "";
    if (!this.#maps.has(key)) {
      if (cellId === undefined) this.#maps.set(key, lineMapOf(this.#code));
      else {
        // a workflow: every step's map at once, so its code is parsed once
        let steps: Array<{ cellId: string; code: string }> = [];
        try {
          steps = parseWorkflowCode(this.#code) ?? [];
        } catch {
          // not a workflow's code after all: no step maps
        }
        for (const s of steps) this.#maps.set(s.cellId, lineMapOf(s.code));
        if (!this.#maps.has(key)) this.#maps.set(key, null);
      }
    }
    return this.#maps.get(key) ?? null;
  }
}
