import { Rng } from "./prng.ts";
import { operationsOf, type Operation } from "./ops.ts";
import { learn, operationCase, type Ctx } from "./api-cases.ts";
import { ingressCase, miscCase, mutate, protocolCase, sseCase } from "./edge-cases.ts";
import { judge } from "./check.ts";
import { rawRequest } from "./raw-http.ts";
import { Report } from "./report.ts";
import { buildWorld } from "./world.ts";
import { toBytes, type Case } from "./wire.ts";
import type { Target } from "./service.ts";

// The fuzz loop: build the fixtures, then send N generated requests, a few at a time, each on a
// connection of its own, and judge every reply.

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** requests in flight at once */
  concurrency?: number;
  /** a reply slower than this is a finding (a hang) */
  timeoutMs?: number;
  /** called every `every` requests with the count so far */
  progress?: (done: number) => void;
}

export interface FuzzResult {
  report: Report;
  ms: number;
  /** whether /healthz still answered 200 at the end */
  healthy: boolean;
}

function nextCase(ctx: Ctx, ops: Operation[]): Case {
  const { rng } = ctx;
  const c = rng.weighted<() => Case>([
    [60, () => operationCase(ctx, rng.pick(ops))],
    [14, () => ingressCase(ctx)],
    [5, () => sseCase(ctx)],
    [6, () => miscCase(ctx)],
    [8, () => protocolCase(ctx)],
  ])();
  return !c.raw && rng.chance(0.12) ? mutate(ctx, c) : c;
}

/** Requests that are being answered right now: shown if the service dies under one of them. */
export const inFlight = new Map<number, Case>();

export async function runFuzz(target: Target, opts: FuzzOptions): Promise<FuzzResult> {
  const world = await buildWorld(target);
  const docRes = await fetch(`http://${target.host}:${target.port}/v1/openapi.json`, { headers: { authorization: `Bearer ${target.adminKey}` } });
  if (docRes.status !== 200) throw new Error(`GET /v1/openapi.json answered ${docRes.status}`);
  const ops = operationsOf((await docRes.json()) as Parameters<typeof operationsOf>[0]);
  const ctx: Ctx = { rng: new Rng(opts.seed), world };
  const report = new Report();
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const started = Date.now();
  let next = 0;

  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= opts.requests) return;
      // generated when taken, so case i is the same for a given seed whatever the timing
      const c = nextCase(ctx, ops);
      inFlight.set(index, c);
      const r = await rawRequest(toBytes(c), { host: target.host, port: target.port, timeoutMs, head: c.head, endAfterWrite: c.endAfterWrite });
      inFlight.delete(index);
      if (r.reply) learn(ctx, c, r.reply.status, r.reply.body);
      report.add(index, c, r, judge(c, r));
      if (opts.progress && report.total % 1000 === 0) opts.progress(report.total);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker));
  const ms = Date.now() - started;

  const health = await rawRequest("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", { host: target.host, port: target.port, timeoutMs });
  return { report, ms, healthy: health.reply?.status === 200 };
}
