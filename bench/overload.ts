import { createSink, MAIN_CONNECTIONS, paddedBody } from "./ingest.ts";
import { load, type LoadResult } from "./load.ts";
import { paced, type SendResult } from "./paced.ts";
import { startBare, startService } from "./processes.ts";
import { Api, int, mib, ms, pct, table, treeRss, waitForCount, type Check } from "./util.ts";

// Overload (issue): first the capacity, durable ingest into an HTTP source whose run emits the
// body (autocannon, 50 connections, up to 10 s; capacity = events stored / (load + drain), the
// rate the runs keep up with). Then twice that rate offered for --seconds (30 s by default) by
// the paced sender (paced.ts: open loop, a batch every 10 ms whatever the answers, up to 256
// sockets), into a second sink. Reported: ingress p50/p99 (a request waiting for a socket counts
// that wait), the answers by status (accepted requests wait in the inbox table; past
// TRIBUTARY_MAX_BACKLOG waiting runs, 20,000 by default, a request waits for room up to
// TRIBUTARY_OVERLOAD_HOLD_MS, 3 s by default, and is then answered 429 overloaded, which the
// sender counts and doesn't retry), the peak RSS of the service and its runners, the drain
// (from the load's end to the last event stored), and the lost: accepted (2xx) requests whose
// event is not stored once the drain is over (must be 0). The bare node:http server takes the
// same autocannon load and the same paced rate in the same run, for the ratios.

const MAX_SOCKETS = 256;
/** TRIBUTARY_OVERLOAD_HOLD_MS's default */
const HOLD_MS = 3000;
const QUIET_MS = 15_000;

/** `rate`: requests/s to offer instead of twice the measured capacity */
export async function benchOverload(seconds: number, rate?: number): Promise<void> {
  if (rate !== undefined && !(rate > 0)) throw new Error(`--rate must be a positive number, got "${rate}"`);
  const adminKey = "bench-admin-key-" + Date.now();
  const body = paddedBody({ kind: "overload", source: "bench" }, 200);
  const headers = { "content-type": "application/json" };
  const capSeconds = Math.min(10, seconds);

  const service = await startService(adminKey, { TRIBUTARY_EVENT_RETENTION: "1000000" });
  const pid = service.child.pid!;
  let cap: LoadResult;
  let capacity: number;
  let capStored: number;
  let capDrainMs: number;
  let offered: number;
  let sent: SendResult;
  /** how long the paced load really took, its last answers included (s) */
  let sentSeconds: number;
  let storedAtLoadEnd: number;
  let stored: number;
  let drainMs: number;
  let drainDone: boolean;
  let rssBefore: number;
  let peakRss = 0;
  let peakEach: number[] = [];
  try {
    const api = new Api(service.url, adminKey);
    // the first run of a component compiles it; returns how many warm-up requests were accepted
    // (right after a large backlog an endpoint may still answer 429 for a moment)
    const warmUp = async (endpoint: string, id: string) => {
      let accepted = 0;
      for (let i = 0; i < 20; i++) {
        const res = await fetch(endpoint, { method: "POST", headers, body });
        await res.text();
        if (res.ok) accepted++;
      }
      await waitForCount(() => api.eventCount(id), { expected: accepted, quietMs: 5000, timeoutMs: 30_000 });
      return accepted;
    };

    // 1. capacity
    const a = await createSink(api, "overload-capacity");
    const warmA = await warmUp(a.endpoint, a.id);
    cap = await load({ url: a.endpoint, connections: MAIN_CONNECTIONS, seconds: capSeconds, method: "POST", headers, body });
    const capEnd = Date.now();
    const capDone = await waitForCount(async () => (await api.eventCount(a.id)) - warmA, { expected: cap.ok, quietMs: QUIET_MS, timeoutMs: 600_000 });
    capStored = capDone.count;
    capDrainMs = Math.max(0, capDone.lastGrowthAt - capEnd);
    capacity = capStored / (cap.durationS + capDrainMs / 1000);
    offered = rate ?? Math.round(2 * capacity);

    // 2. twice the capacity (or --rate), paced, for `seconds`. The sender first runs 2 s at that rate against
    // a bare server: cold, its own JIT warm-up and first sockets made the service's first
    // seconds look slow (p99 120-150 ms in the first 5 s, 30-40 ms after), while the bare
    // yardstick, measured last, always got a warm sender.
    const warmSender = await startBare();
    try {
      await paced(warmSender.url, offered, 2, () => body, { maxSockets: MAX_SOCKETS });
    } finally {
      await warmSender.stop();
    }
    const b = await createSink(api, "overload-twice");
    const warmB = await warmUp(b.endpoint, b.id);
    rssBefore = treeRss(pid).bytes;
    const sample = () => {
      const m = treeRss(pid);
      if (m.bytes > peakRss) [peakRss, peakEach] = [m.bytes, m.each];
    };
    const sampler = setInterval(sample, 500);
    try {
      const sendStart = Date.now();
      sent = await paced(b.endpoint, offered, seconds, (seq) => paddedBody({ kind: "overload", seq }, 200), { maxSockets: MAX_SOCKETS });
      sentSeconds = (Date.now() - sendStart) / 1000;
      const loadEnd = Date.now();
      storedAtLoadEnd = (await api.eventCount(b.id)) - warmB;
      const done = await waitForCount(async () => (await api.eventCount(b.id)) - warmB, {
        expected: sent.accepted.size,
        quietMs: QUIET_MS,
        timeoutMs: 900_000,
        everyMs: 500,
      });
      stored = done.count;
      drainDone = stored >= sent.accepted.size;
      drainMs = Math.max(0, done.lastGrowthAt - loadEnd);
      sample();
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await service.stop();
  }

  // 3. the yardstick: bare node:http under the same autocannon load and the same paced rate
  const bare = await startBare();
  let bareCap: LoadResult;
  let barePaced: SendResult;
  try {
    bareCap = await load({ url: bare.url, connections: MAIN_CONNECTIONS, seconds: capSeconds, method: "POST", headers, body });
    barePaced = await paced(bare.url, offered, Math.min(seconds, 10), () => body, { maxSockets: MAX_SOCKETS });
  } finally {
    await bare.stop();
  }

  const accepted = sent.accepted.size;
  const lost = Math.max(0, accepted - stored);
  const durationS = seconds;
  const statuses = Object.entries(sent.statuses).map(([code, n]) => `${code}: ${int(n)}`).join(", ") || "none";
  const rows: Check[] = [
    { metric: `bare node:http POST (${MAIN_CONNECTIONS} conn, ${capSeconds} s)`, value: `${int(bareCap.rps)} req/s` },
    { metric: `capacity: service req/s answered (${MAIN_CONNECTIONS} conn)`, value: `${int(cap.rps)} req/s, p99 ${cap.p99} ms` },
    { metric: "capacity: events stored / (load + drain)", value: `${int(capacity)} events/s (drain ${ms(capDrainMs)})` },
    { metric: "capacity ratio to bare req/s", value: (capacity / bareCap.rps).toFixed(2) },
    { metric: "capacity run: accepted, stored", value: `${int(cap.ok)}, ${int(capStored)}` },
    { metric: rate === undefined ? `offered: 2x capacity for ${durationS} s (paced)` : `offered: --rate for ${durationS} s (paced)`, value: `${int(offered)} req/s` },
    { metric: "sent, answered 2xx (accepted)", value: `${int(sent.sent)}, ${int(accepted)} (${int(accepted / durationS)}/s)` },
    { metric: "answers by status", value: statuses },
    // answers wait (at the sender, for one of its sockets, and past the bound at the service, for
    // room): the load lasts until the last is answered
    { metric: "load's real length, accepted/s over it", value: `${sentSeconds.toFixed(1)} s, ${int(accepted / sentSeconds)}/s` },
    { metric: "accepted/s : capacity", value: (accepted / sentSeconds / capacity).toFixed(2) },
    { metric: "429 answers", value: int(sent.statuses[429] ?? 0) },
    {
      // past the backlog bound a request waits for room up to the hold bound (3 s by default) and
      // is refused only after it; the sender's 256 sockets are fewer than may wait, so none is refused at once
      metric: "quickest 429 (it waited the hold bound out)",
      value: Number.isFinite(sent.refusedMinMs) ? ms(sent.refusedMinMs) : "no 429",
      target: `>= ${HOLD_MS - 100} ms`,
      pass: !Number.isFinite(sent.refusedMinMs) || sent.refusedMinMs >= HOLD_MS - 100,
    },
    { metric: "errors + timeouts (10 s)", value: int(sent.errors) },
    { metric: "sender behind schedule at the end", value: ms(sent.behindMs) },
    { metric: "ingress p50", value: ms(pct(sent.latencies, 50)) },
    // past capacity answers slow down to the runs' pace (they wait for room): no target on them
    { metric: "ingress p99", value: ms(pct(sent.latencies, 99)) },
    {
      metric: "ingress p99 by 5 s of the load",
      value: sent.byWindow.map((w) => pct([...w].sort((a, b) => a - b), 99).toFixed(0)).join(" / ") + " ms",
    },
    { metric: "ingress max", value: ms(sent.latencies[sent.latencies.length - 1] ?? NaN) },
    {
      metric: `bare at the same rate (${Math.min(seconds, 10)} s) p50 / p99`,
      value: `${ms(pct(barePaced.latencies, 50))} / ${ms(pct(barePaced.latencies, 99))}, errors ${barePaced.errors}`,
    },
    { metric: "ratio ingress p99 : bare p99", value: `${(pct(sent.latencies, 99) / pct(barePaced.latencies, 99)).toFixed(1)}x` },
    { metric: "events stored when the load stopped", value: `${int(storedAtLoadEnd)} (${int(storedAtLoadEnd / durationS)}/s)` },
    { metric: "backlog when the load stopped (accepted - stored)", value: int(Math.max(0, accepted - storedAtLoadEnd)) },
    { metric: "drain: last event stored after the load ended", value: drainDone ? ms(drainMs) : `not done: stopped growing ${QUIET_MS / 1000} s, ${ms(drainMs)}` },
    { metric: "events stored in all", value: int(stored) },
    { metric: "accepted (2xx) but not stored (lost)", value: int(lost), target: "0", pass: lost === 0 },
    { metric: "stored beyond the 2xx (timed out, yet accepted)", value: int(Math.max(0, stored - accepted)) },
    { metric: "RSS service + runners before the load", value: mib(rssBefore) },
    { metric: "peak RSS service + runners (load + drain)", value: mib(peakRss), target: "< 1 GiB", pass: peakRss < 1024 ** 3 },
    { metric: "every accepted request processed (drained)", value: drainDone && lost === 0 ? "yes" : "no", target: "yes", pass: drainDone && lost === 0 },
    { metric: "  at the peak: service, then each runner", value: peakEach.map(mib).join(", ") },
  ];
  table(`Overload: twice the measured capacity for ${durationS} s into one HTTP source`, rows);
}
