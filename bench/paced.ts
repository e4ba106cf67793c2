import { performance } from "node:perf_hooks";
import { RawHttpPool } from "./raw-http.ts";
import { sleep } from "./util.ts";

// The paced sender of the live-latency and delivery benches: every 10 ms a batch of rate/100
// POSTs (below 100/s, one POST every 1000/rate ms) over keep-alive connections, on a schedule
// that doesn't drift (a late batch is followed by the next one on time). Run against the bare
// node:http server it gives the round-trip yardstick of this machine. Requests go over plain
// keep-alive sockets (raw-http.ts): node:http's client was the bottleneck past ~10,000/s.

const TICK_MS = 10;
const REQUEST_TIMEOUT_MS = 10_000;

export interface SendResult {
  sent: number;
  errors: number;
  non2xx: number;
  /** seqs answered 2xx: the events every reader must get */
  accepted: Set<number>;
  /** request round trips, ms, sorted */
  latencies: number[];
  /** how far the last batch started behind its schedule */
  behindMs: number;
  /** answers by HTTP status */
  statuses: Record<number, number>;
  /** the quickest 429 answer's round trip, ms (Infinity: none): how long a refused request waited */
  refusedMinMs: number;
  /** round trips by the 5 s window of the load their request was due in: where a tail comes from */
  byWindow: number[][];
}

const WINDOW_MS = 5000;

/**
 * POSTs `rate` requests per second for `seconds`; body(seq) gives each request's body. A request
 * waiting for a free socket (maxSockets, 32 by default) counts that wait in its latency.
 */
export async function paced(
  url: string,
  rate: number,
  seconds: number,
  body: (seq: number) => string,
  opts: { maxSockets?: number } = {},
): Promise<SendResult> {
  const pool = new RawHttpPool(url, opts.maxSockets ?? 32, REQUEST_TIMEOUT_MS);
  const target = new URL(url);
  const path = target.pathname + target.search;
  // below 100/s a tick carries one request and ticks come every 1000 / rate ms
  const tickMs = Math.max(TICK_MS, 1000 / rate);
  // a tick's share of the rate, kept fractional: 150/s is 1.5 per 10 ms tick, not 2
  const perTick = Math.max(1, (rate * tickMs) / 1000);
  const ticks = Math.round((seconds * 1000) / tickMs);
  const out: SendResult = { sent: 0, errors: 0, non2xx: 0, accepted: new Set(), latencies: [], behindMs: 0, statuses: {}, byWindow: [], refusedMinMs: Infinity };
  const one = (seq: number): Promise<void> => {
    const started = performance.now();
    return pool.post(path, body(seq)).then(
      ({ status }) => {
        const took = performance.now() - started;
        out.latencies.push(took);
        (out.byWindow[Math.floor((started - start) / WINDOW_MS)] ??= []).push(took);
        out.statuses[status] = (out.statuses[status] ?? 0) + 1;
        if (status >= 200 && status < 300) out.accepted.add(seq);
        else out.non2xx++;
        if (status === 429) out.refusedMinMs = Math.min(out.refusedMinMs, took);
      },
      () => {
        out.errors++;
      },
    );
  };
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let t = 0, seq = 0; t < ticks; t++) {
    const due = start + t * tickMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    out.behindMs = Math.max(0, performance.now() - due);
    for (const upTo = Math.floor((t + 1) * perTick); seq < upTo; out.sent++) pending.push(one(seq++));
  }
  await Promise.all(pending);
  pool.destroy();
  out.latencies.sort((a, b) => a - b);
  return out;
}

/** Waits until cond() holds or timeoutMs passes; with `progress`, also gives up after quietMs without any. */
export async function until(cond: () => boolean, timeoutMs: number, progress?: () => number, quietMs = 0): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = progress?.();
  let lastChange = Date.now();
  while (!cond() && Date.now() < deadline) {
    await sleep(50);
    const now = progress?.();
    if (now !== last) [last, lastChange] = [now, Date.now()];
    else if (progress && Date.now() - lastChange > quietMs) return;
  }
}
