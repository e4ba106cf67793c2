// The host side of invocations: N runner processes, each source pinned to one of them (so its
// invocations run in order, in the isolate that is warm for it). Never rejects: a timeout or a
// runner that died becomes an error result like any other failed invocation.
import { RunnerProcess, type RunnerProcessOptions } from "./runner-process.ts";
import type { RunnerSettings } from "./ipc.ts";
import type { InvokeReply, InvokeRequest, InvokeResult } from "./protocol.ts";
import type { Invoker, InvokeCall } from "./types.ts";
import { DispatchGate } from "./dispatch-gate.ts";
import { fnv1a } from "../lib/hash.ts";

/**
 * invocations out at one runner at once, by default (the rest wait on the host, undated): as many
 * as one source may have in flight (the inbox pump's 256), so a single hot source isn't held back
 * here. Measured with 2,000 timer sources at 1 s: p99 lateness 12-23 ms at 128-256, 1 s at 512
 * (more runs interleaved in a runner, each takes longer).
 */
const MAX_DISPATCHED = 256;
/**
 * Runs of a workflow side by side (each its own order key) have a gate of their own: most wait on
 * an API, holding a context and little CPU, so 1,000 may be out at once (sandbox/contexts.ts makes
 * those that only compute take turns, and their deadline starts when their turn comes), and they
 * never hold back a source's invocations, nor those them.
 */
const MAX_RUNS_DISPATCHED = 1024;

// On top of the invocation's own deadline (enforced inside the runner): IPC, isolate start,
// compiling. The host deadline only fires when the runner itself is stuck.
const HOST_GRACE_MS = 10_000;


const failed = (name: string, message: string, wallMs: number): InvokeResult => ({
  emits: [],
  db: null,
  logs: [],
  emitErrors: [],
  wallMs,
  error: { name, message, stack: `${name}: ${message}` },
});

interface Runner {
  process: RunnerProcess;
  /** code hashes this runner was sent; cleared when it answers needCode (it restarted) */
  known: Set<string>;
  /** sources' invocations (one at a time per source) */
  gate: DispatchGate;
  /** workflows' runs side by side */
  runsGate: DispatchGate;
}

export interface RunnerPoolOptions {
  size: number;
  settings?: RunnerSettings;
  /** retire a runner past this RSS once its work is done (0 = never) */
  maxRssBytes?: number;
  /** the runner's entry file; tests substitute a fake runner */
  entry?: string;
  /** invocations out at one runner at once (default 256) */
  maxDispatched?: number;
  /** the runners' CPU priority below the service's (nice, 0-19) */
  nice?: number;
  /** answers the runners' questions during invocations (data store reads): RunnerProcessOptions.answer */
  answer?: RunnerProcessOptions["answer"];
}

export class RunnerPool implements Invoker {
  readonly #runners: Runner[];

  constructor(opts: RunnerPoolOptions) {
    const { size, maxDispatched, ...processOpts } = opts;
    this.#runners = Array.from({ length: Math.max(1, size) }, () => ({
      process: new RunnerProcess(processOpts),
      known: new Set<string>(),
      gate: new DispatchGate(maxDispatched ?? MAX_DISPATCHED),
      runsGate: new DispatchGate(maxDispatched ?? MAX_RUNS_DISPATCHED),
    }));
  }

  /** per runner: processes started (restarts + 1) and the RSS it last reported */
  stats(): Array<{ started: number; rss: number }> {
    return this.#runners.map((r) => ({ started: r.process.started, rss: r.process.lastRss }));
  }

  async invoke(call: InvokeCall): Promise<InvokeResult> {
    // a source's invocations, a workflow's runs too, stay on one runner: its warm contexts are
    // there (spreading a workflow's runs over the runners measured slower on 2 cores, the runners
    // then competing with the service, and doubled the contexts kept)
    const runner = this.#runners[fnv1a(call.sourceId) % this.#runners.length];
    const started = Date.now();
    const send = (withCode: boolean) => {
      const { code, durable, fresh, onRespond, env, ...rest } = call;
      // only the variables' version: a runner holds their text, and asks for it once (RunnerEnvAsk)
      const req: InvokeRequest = { type: "invoke", ...rest, ...(withCode ? { code } : {}), ...(onRespond ? { respondNow: true } : {}), ...(env ? { envVersion: env.version } : {}) };
      return runner.process.request<InvokeReply>(req, {
        key: call.orderKey ?? call.sourceId,
        retryOnCrash: durable === true,
        // a runner that restarted or let the code go asks for it while the run keeps its place
        code: () => code,
        ...(env ? { env: () => env.json } : {}),
        ...(onRespond ? { onTell: onRespond } : {}),
        // sent again on a new runner: with the code (it knows nothing) and the db as it is now
        resend: () => ({ ...req, code, ...fresh?.() }),
        deadlineMs: call.limits.timeoutMs + HOST_GRACE_MS,
        onTimeout: () => new Error(`TimeoutError: invocation timed out after ${call.limits.timeoutMs} ms`),
        onCrash: () => new Error("RunnerCrashed: the sandbox process died during this invocation"),
      });
    };
    const gate = call.orderKey !== undefined && call.orderKey !== call.sourceId ? runner.runsGate : runner.gate;
    const entering = gate.enter();
    if (entering) await entering;
    try {
      let reply = await send(!runner.known.has(call.codeHash));
      // only when the runner could not ask for the code (the code ask normally answers it)
      if ("needCode" in reply) {
        runner.known.clear();
        reply = await send(true);
      }
      runner.known.add(call.codeHash);
      if ("needCode" in reply) return failed("InternalError", "the sandbox did not load the component", Date.now() - started);
      return reply;
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      const m = /^(\w+): (.*)$/s.exec(text);
      return failed(m ? m[1] : "InternalError", m ? m[2] : text, Date.now() - started);
    } finally {
      gate.leave();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#runners.map((r) => r.process.close()));
  }
}
