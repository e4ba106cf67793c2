import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Api, int, mib, sleep, treeRss, type Check } from "./util.ts";

// The I/O variant of the workflows bench (workflows.ts runs it beside Restate, in the same run):
// each of 3 steps awaits a local HTTP API that answers after API_DELAY_MS, so a run's own work is
// ~3 x 20 ms of waiting. With CONNECTIONS closed-loop connections the physical limit is
// CONNECTIONS / (3 x API_DELAY_MS) completed runs/s: what a system reaches if it runs the
// connections' runs side by side and adds nothing. Restate does the same 3 calls, each in
// ctx.run. Then MANY runs awaiting a slow call (SLOW_DELAY_MS) at once: the service's RSS
// (service and runners) while they wait, and how many were waiting on the API at the same time.

export const API_DELAY_MS = 20;
export const IO_STEPS = 3;
const SLOW_DELAY_MS = 3000;
const MANY = 1000;

export interface SlowApi {
  url: string;
  port: number;
  /** requests waiting for their answer now, and the most at once */
  inFlight: () => number;
  peak: () => number;
  stop(): Promise<void>;
}

/** an HTTP API on loopback that answers `{"ok": true}` after `delayMs` */
export async function startSlowApi(delayMs: number): Promise<SlowApi> {
  let inFlight = 0;
  let peak = 0;
  const server = createServer((_req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    setTimeout(() => {
      inFlight--;
      res.setHeader("content-type", "application/json");
      res.end('{"ok":true}');
    }, delayMs);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    inFlight: () => inFlight,
    peak: () => peak,
    stop: () => new Promise<void>((r) => server.close(() => r())).then(() => server.closeAllConnections()),
  };
}

/** 3 steps each awaiting the API and adding 1 to the value before it; the last answers {value} */
export function ioSteps(apiUrl: string): Array<{ name: string; code: string }> {
  return Array.from({ length: IO_STEPS }, (_, i) => {
    const before = i === 0 ? "steps.trigger.event.body.n" : `steps.s${i}.$return_value`;
    const respond = i === IO_STEPS - 1 ? "$.respond({ body: { value } });" : "";
    return {
      name: `s${i + 1}`,
      code: `export default { async run({ steps, $ }) { const r = await fetch(${JSON.stringify(apiUrl)}); await r.text(); const value = ${before} + 1; ${respond} return value; } }`,
    };
  });
}

/** Restate's handler for the same work: each call in ctx.run, its result journalled before the next */
export const RESTATE_IO_HANDLER = `io: async (ctx, input) => {
      let value = input.n;
      for (let i = 1; i <= ${IO_STEPS}; i++) {
        const prev = value;
        value = await ctx.run("s" + i, async () => { const r = await fetch(input.url); await r.text(); return prev + 1; });
      }
      return { value };
    },`;

export interface ManyResult {
  count: number;
  /** runs that ended succeeded */
  succeeded: number;
  peakRssBytes: number;
  /** the most runs waiting on the slow API at the same moment */
  peakWaiting: number;
  seconds: number;
}

/**
 * MANY runs of a workflow whose step awaits the slow API, sent at once (each request answered
 * when accepted): the service tree's peak RSS while they wait, and how many waited at once.
 */
export async function manyAwaiting(api: Api, servicePid: number, slow: SlowApi, serviceUrl: string): Promise<ManyResult> {
  const w = (
    await api.call<{ data: { id: string; trigger: { endpoint_url: string } } }>("POST", "/v1/workflows", {
      name: "bench-many-awaiting",
      trigger: { type: "http" },
      steps: [{ name: "wait", code: `export default { async run() { const r = await fetch(${JSON.stringify(slow.url)}); return (await r.json()).ok; } }` }],
    })
  ).data;
  const path = new URL(w.trigger.endpoint_url).pathname;
  const started = Date.now();
  let peakRss = 0;
  const sample = setInterval(() => (peakRss = Math.max(peakRss, treeRss(servicePid).bytes)), 100);
  try {
    const answers = await Promise.all(
      Array.from({ length: MANY }, (_, i) => fetch(`${serviceUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ i }) }).then((r) => r.status)),
    );
    const accepted = answers.filter((s) => s === 200).length;
    let succeeded = 0;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(500)) {
      const page = await api.call<{ page_info: { total_count: number } }>("GET", `/v1/workflows/${w.id}/runs?status=succeeded&limit=1`);
      succeeded = page.page_info.total_count;
      if (succeeded >= accepted) break;
    }
    return { count: accepted, succeeded, peakRssBytes: peakRss, peakWaiting: slow.peak(), seconds: (Date.now() - started) / 1000 };
  } finally {
    clearInterval(sample);
  }
}

export const SLOW_API_DELAY_MS = SLOW_DELAY_MS;

/** the I/O rows of the bench's table */
export function ioRows(o: { connections: number; ours: number[]; theirs: number[] | undefined; bare: number[]; ourFailures: string; many: ManyResult | undefined; manyFailed: string }): Check[] {
  const limit = o.connections / ((IO_STEPS * API_DELAY_MS) / 1000);
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? NaN;
  const ours = median(o.ours);
  const theirs = o.theirs && o.theirs.length > 0 ? median(o.theirs) : undefined;
  const bare = median(o.bare);
  const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");
  return [
    { metric: `I/O: physical limit, ${o.connections} conn / (${IO_STEPS} x ${API_DELAY_MS} ms)`, value: `${int(limit)} runs/s` },
    {
      metric: `I/O: bare Node, the same ${IO_STEPS} fetches awaited in turn (no sandbox, nothing durable): runs/s`,
      value: `${int(bare)} (rounds ${o.bare.map((r) => int(r)).join(" / ")}) = ${fixed(bare / limit)}x the physical limit`,
    },
    { metric: `I/O: Tributary, ${IO_STEPS} steps each awaiting the API: completed runs/s`, value: `${int(ours)} (rounds ${o.ours.map((r) => int(r)).join(" / ")})` },
    { metric: "I/O: Restate, the same calls in ctx.run: completed runs/s", value: theirs === undefined ? "SKIPPED" : `${int(theirs)} (rounds ${o.theirs!.map((r) => int(r)).join(" / ")})` },
    { metric: "I/O: Tributary errors, non-2xx, 2xx without the value", value: o.ourFailures, target: "0, 0, 0", pass: o.ourFailures === "0, 0, 0" },
    { metric: "I/O: Tributary : physical limit", value: `${fixed(ours / limit)}x`, target: ">= 0.8x", pass: ours / limit >= 0.8 },
    { metric: "I/O: Tributary : bare Node", value: `${fixed(ours / bare)}x` },
    { metric: "I/O: Tributary : Restate completed runs/s", value: theirs === undefined ? "unknown (Restate skipped)" : `${fixed(ours / theirs)}x`, target: ">= 1.0x", pass: theirs !== undefined && ours / theirs >= 1 },
    {
      metric: `${int(MANY)} runs awaiting a ${SLOW_DELAY_MS / 1000} s call, sent at once (a service of their own)`,
      value: o.many
        ? `${int(o.many.succeeded)} of ${int(o.many.count)} succeeded in ${o.many.seconds.toFixed(1)} s; peak RSS ${mib(o.many.peakRssBytes)}; ${int(o.many.peakWaiting)} waiting on the API at once`
        : `FAILED (${o.manyFailed})`,
      target: "RSS < 1 GiB, all succeeded",
      pass: o.many !== undefined && o.many.succeeded === o.many.count && o.many.count === MANY && o.many.peakRssBytes < 1024 ** 3,
    },
  ];
}
