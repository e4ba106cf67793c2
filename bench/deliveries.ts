import { request, type IncomingMessage } from "node:http";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { createSink, paddedBody } from "./ingest.ts";
import { paced, until, type SendResult } from "./paced.ts";
import { startBare, startService, type Running } from "./processes.ts";
import { Api, int, ms, pct, table, type Check } from "./util.ts";

// Subscription delivery (issue target): 500 events/s for 20 s into one HTTP source (the
// emitter) with 10 listener sources subscribed to it (decisions §5). Each listener re-emits what
// it is delivered, i.e. the emitter's payload, which carries the send time (performance.now() of
// this process, taken just before the POST is written) and a sequence number. One SSE stream per
// listener (decisions §7) timestamps each message on arrival, so a figure covers ingress, the
// emitter's run and commit, the delivery, the listener's run and commit, the bus and the SSE
// write. Targets: every listener gets every accepted (2xx) event, p99 < 100 ms from ingest.
//
// "Missing": accepted but not received within DRAIN_MS after the load (the drain ends early once
// all is in), so a broken delivery path costs DRAIN_MS, not a hang. The paced sender
// (paced.ts), run against bare node:http, gives the yardstick.
//
// Fan-out (`--only=fanout --listeners=N [--rate=R] [--latency-rate=L]`): the same with N listeners
// (100) on one emitter, so N deliveries per event, in two runs. Capacity: R events/s (150, i.e.
// 15,000 deliveries/s offered, more than the target) gives deliveries/s (listener events received
// over the time from the load's start to the last one; target >= 10,000); at an offered rate the
// service keeps up with, that figure would only measure the offer. Latency: L events/s (50, i.e.
// 5,000 deliveries/s, within capacity) gives the p99, target < 20 ms. Both drain longer.

export interface DeliveryOptions {
  listeners?: number;
  rate?: number;
  drainMs?: number;
  title?: string;
  /** verdicts: deliveries/s at least this (fan-out), delivery p99 under this (default 100 ms; null: no verdict) */
  minDeliveriesPerSecond?: number;
  p99TargetMs?: number | null;
}
const LISTENER = `export default { name: "listener", async run(event) { this.$emit(event) } }`;

interface Stream {
  seqs: Set<number>;
  latencies: number[];
  duplicates: number;
  warm: number;
  /** messages without this run's payload: a listener that got something else than the emitted body */
  foreign: number;
  lastAt: number;
  /** the service closed the stream (e.g. a slow reader cut off) */
  ended: boolean;
  connected: Promise<void>;
  close(): void;
}

function sseStream(baseUrl: string, sourceId: string, key: string, runId: string): Stream {
  const s: Stream = { seqs: new Set(), latencies: [], duplicates: 0, warm: 0, foreign: 0, lastAt: 0, ended: false, connected: Promise.resolve(), close: () => {} };
  let res: IncomingMessage | undefined;
  let closing = false;
  const url = new URL(`/sources/${sourceId}/sse`, baseUrl); // host root, no /v1 (api-v1.md 17)
  s.connected = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`SSE of ${sourceId}: no handshake within 10 s`)), 10_000).unref();
    const headers = { authorization: `Bearer ${key}`, accept: "text/event-stream" };
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (r) => {
      res = r;
      if (r.statusCode !== 200) return reject(new Error(`SSE of ${sourceId} answered ${r.statusCode}`));
      r.setEncoding("utf8");
      r.on("close", () => (s.ended = !closing));
      let buf = "";
      r.on("data", (chunk: string) => {
        const now = performance.now();
        buf += chunk;
        for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n")) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (block.startsWith(":sse-handshake")) {
            clearTimeout(timer);
            resolve();
            continue;
          }
          const data = block
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (!data) continue;
          let ev: { run?: string; phase?: string; seq?: number; sent?: number } | undefined;
          try {
            ev = (JSON.parse(data) as { event?: typeof ev }).event;
          } catch {
            // not JSON: counted as foreign below
          }
          if (ev?.run !== runId || typeof ev.seq !== "number" || typeof ev.sent !== "number") {
            s.foreign++;
            continue;
          }
          if (ev.phase === "warm") {
            s.warm++;
            continue;
          }
          if (s.seqs.has(ev.seq)) {
            s.duplicates++;
            continue;
          }
          s.seqs.add(ev.seq);
          s.latencies.push(now - ev.sent);
          s.lastAt = now;
        }
      });
    });
    req.on("error", reject);
    req.end();
    s.close = () => {
      closing = true;
      clearTimeout(timer);
      res?.destroy();
      req.destroy();
    };
  });
  return s;
}


/** SIGTERM, and SIGKILL if the service hasn't exited after 15 s: the bench always ends */
async function stopHard(service: Running): Promise<void> {
  const timer = setTimeout(() => service.child.kill("SIGKILL"), 15_000);
  await service.stop().finally(() => clearTimeout(timer));
}

export async function benchDeliveries(seconds: number, opts: DeliveryOptions = {}): Promise<void> {
  const LISTENERS = opts.listeners ?? 10;
  const RATE = opts.rate ?? 500;
  const DRAIN_MS = opts.drainMs ?? 10_000;
  const P99_TARGET = opts.p99TargetMs === undefined ? 100 : opts.p99TargetMs;
  if (!(Number.isInteger(LISTENERS) && LISTENERS > 0)) throw new Error(`--listeners must be a positive integer, got ${LISTENERS}`);
  if (!(RATE > 0)) throw new Error(`--rate must be a positive number, got ${RATE}`);
  const adminKey = "bench-admin-key-" + Date.now();
  const runId = "r" + Date.now().toString(36);
  const body = (phase: string) => (seq: number) => paddedBody({ run: runId, phase, seq, sent: performance.now() }, 200);

  const bare = await startBare();
  let baseline: SendResult;
  try {
    await paced(bare.url, RATE, 0.5, body("warm"));
    baseline = await paced(bare.url, RATE, seconds, body("bare"));
  } finally {
    await bare.stop();
  }

  // retention raised so the emitter's stored count is its real count (a check on the emitter alone)
  const service = await startService(adminKey, { TRIBUTARY_EVENT_RETENTION: "1000000" });
  const streams: Stream[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  let sent: SendResult;
  let emitterStored: number;
  let loadEnd: number;
  let loadStart: number;
  try {
    const api = new Api(service.url, adminKey);
    const emitter = await createSink(api, "deliveries-emitter");
    for (let i = 0; i < LISTENERS; i++) {
      const l = await api.call<{ data: { id: string } }>("POST", "/v1/sources/", { component_code: LISTENER, name: `deliveries-listener-${i}` });
      await api.call("POST", `/v1/subscriptions?emitter_id=${emitter.id}&listener_id=${l.data.id}`);
      streams.push(sseStream(service.url, l.data.id, adminKey, runId));
    }
    await Promise.all(streams.map((s) => s.connected));
    // warm-up: compiles the emitter and the listeners; not measured. Gives up after 5 s without progress.
    const warm = await paced(emitter.endpoint, Math.min(200, RATE), 0.5, body("warm"));
    const warmed = () => streams.reduce((n, s) => n + s.warm, 0);
    await until(() => streams.every((s) => s.warm >= warm.accepted.size), 30_000, warmed, 5000);
    if (streams.some((s) => s.warm < warm.accepted.size)) {
      console.log(`  (warm-up: listeners got ${streams.map((s) => s.warm).join(", ")} of ${warm.accepted.size} events; delivery may not be working)`);
    }
    loop.enable();
    loadStart = performance.now();
    sent = await paced(emitter.endpoint, RATE, seconds, body("live"));
    loop.disable();
    loadEnd = performance.now();
    await until(() => streams.every((s) => [...sent.accepted].every((q) => s.seqs.has(q))), DRAIN_MS);
    emitterStored = (await api.eventCount(emitter.id)) - warm.accepted.size;
  } finally {
    for (const s of streams) s.close();
    await stopHard(service);
  }

  const accepted = sent.accepted.size;
  const all = streams.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const p99 = pct(all, 99);
  const bareP99 = pct(baseline.latencies, 99);
  const missing = streams.map((s) => [...sent.accepted].filter((q) => !s.seqs.has(q)).length);
  const received = streams.map((s) => s.seqs.size);
  const totalMissing = missing.reduce((a, b) => a + b, 0);
  const dupes = streams.reduce((n, s) => n + s.duplicates, 0);
  const foreign = streams.reduce((n, s) => n + s.foreign, 0);
  const ended = streams.filter((s) => s.ended).length;
  const lastAt = Math.max(0, ...streams.map((s) => s.lastAt));
  const delivered = received.reduce((a, b) => a + b, 0);
  const deliveryRate = lastAt > loadStart ? delivered / ((lastAt - loadStart) / 1000) : 0;
  const rows: Check[] = [
    { metric: `bare node:http round trip at ${int(RATE)}/s p50 / p99`, value: `${ms(pct(baseline.latencies, 50))} / ${ms(bareP99)}` },
    { metric: "sent / accepted (2xx)", value: `${int(sent.sent)} / ${int(accepted)}` },
    { metric: "ingress errors, non-2xx", value: `${sent.errors}, ${sent.non2xx}`, target: "0, 0", pass: sent.errors + sent.non2xx === 0 },
    { metric: "ingress round trip p50 / p99", value: `${ms(pct(sent.latencies, 50))} / ${ms(pct(sent.latencies, 99))}` },
    { metric: "emitter events stored", value: `${int(emitterStored)} of ${int(accepted)}` },
    { metric: `received per listener (min / max, ${LISTENERS} listeners)`, value: `${int(Math.min(...received))} / ${int(Math.max(...received))} of ${int(accepted)}` },
    { metric: `missing after a ${DRAIN_MS / 1000} s drain (sum / worst listener)`, value: `${int(totalMissing)} / ${int(Math.max(...missing))}` },
    { metric: "every listener got every event", value: totalMissing === 0 && accepted > 0 ? "yes" : "no", target: "yes", pass: totalMissing === 0 && accepted > 0 },
    { metric: "duplicates", value: int(dupes), target: "0", pass: dupes === 0 },
    { metric: "deliveries received (all listeners)", value: `${int(delivered)} of ${int(accepted * LISTENERS)}` },
    {
      metric: "deliveries/s (load start to last delivery)",
      value: int(deliveryRate),
      ...(opts.minDeliveriesPerSecond ? { target: `>= ${int(opts.minDeliveriesPerSecond)}`, pass: deliveryRate >= opts.minDeliveriesPerSecond } : {}),
    },
    { metric: "delivery latency p50", value: ms(pct(all, 50)) },
    { metric: "delivery latency p99", value: ms(p99), ...(P99_TARGET === null ? {} : { target: `< ${P99_TARGET} ms`, pass: p99 < P99_TARGET }) },
    { metric: "delivery latency max", value: ms(all[all.length - 1] ?? NaN) },
    { metric: "ratio delivery p99 : bare round-trip p99", value: all.length ? (p99 / bareP99).toFixed(1) + "x" : "n/a" },
    { metric: "last delivery after the load ended", value: lastAt > loadEnd ? ms(lastAt - loadEnd) : "n/a" },
    { metric: "other messages on listener streams, streams cut off", value: `${foreign}, ${ended}` },
    { metric: "load generator event-loop delay p99", value: ms(loop.percentile(99) / 1e6) },
  ];
  table(`${opts.title ?? "Deliveries"}: ${int(RATE)} events/s into one source, ${LISTENERS} subscribed listeners (${seconds} s)`, rows);
}
