import { request, type IncomingMessage } from "node:http";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { createSink, paddedBody } from "./ingest.ts";
import { paced, until, type SendResult } from "./paced.ts";
import { startBare, startService } from "./processes.ts";
import { Api, int, ms, pct, table, type Check } from "./util.ts";

// Live latency (issue target): 1,000 events/s into one HTTP source watched by 10 SSE clients.
// Each POSTed body carries its send time (performance.now() of this process, taken just before
// the request is written); each client takes its receive time when the message's `data:` line
// arrives, so a figure covers the whole path: HTTP ingress, the durable inbox, the run in the
// sandbox, the event's commit, the bus and the SSE write. Target p99 < 10 ms across all
// clients, and every client gets every event that was accepted (200).
//
// The sender is paced.ts: every 10 ms a batch of rate/100 requests over keep-alive connections, on
// a schedule that doesn't drift (a late batch is followed by the next one on time). The same
// sender against the bare node:http server gives the round-trip yardstick of this machine.

const CLIENTS = 10;
const RATE = 1000;

interface Client {
  /** seqs of the measured run received, and their latencies */
  seqs: Set<number>;
  latencies: number[];
  /** the two halves of each latency: send to indexed_at_ms, indexed_at_ms to receipt */
  toStore: number[];
  fromStore: number[];
  duplicates: number;
  outOfOrder: number;
  warm: number;
  connected: Promise<void>;
  close(): void;
}

function sseClient(baseUrl: string, sourceId: string, key: string, runId: string): Client {
  const c: Client = {
    seqs: new Set(),
    latencies: [],
    toStore: [],
    fromStore: [],
    duplicates: 0,
    outOfOrder: 0,
    warm: 0,
    connected: Promise.resolve(),
    close: () => {},
  };
  let lastId: [number, number] = [0, -1];
  let res: IncomingMessage | undefined;
  const url = new URL(`/sources/${sourceId}/sse`, baseUrl);
  c.connected = new Promise<void>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } },
      (r) => {
        res = r;
        if (r.statusCode !== 200) return reject(new Error(`SSE answered ${r.statusCode}`));
        r.setEncoding("utf8");
        let buf = "";
        r.on("data", (chunk: string) => {
          const now = performance.now();
          buf += chunk;
          for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n")) {
            const block = buf.slice(0, end);
            buf = buf.slice(end + 2);
            if (block.startsWith(":sse-handshake")) {
              resolve();
              continue;
            }
            const lines = block.split("\n");
            const data = lines
              .filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(5).trimStart())
              .join("\n");
            if (!data) continue;
            const idLine = lines.find((l) => l.startsWith("id:"));
            const id = (idLine ?? "id: 0-0").slice(3).trim().split("-").map(Number) as [number, number];
            let ev: { run?: string; phase?: string; seq?: number; sent?: number };
            let indexedAt: number;
            try {
              const item = JSON.parse(data) as { event: typeof ev; indexed_at_ms: number };
              ev = item.event ?? {};
              indexedAt = item.indexed_at_ms;
            } catch {
              continue;
            }
            if (ev.run !== runId) continue;
            if (ev.phase === "warm") {
              c.warm++;
              continue;
            }
            const seq = ev.seq!;
            if (c.seqs.has(seq)) {
              c.duplicates++;
              continue;
            }
            // ids must only grow on a stream (the send order of concurrent requests isn't kept)
            if (id[0] < lastId[0] || (id[0] === lastId[0] && id[1] <= lastId[1])) c.outOfOrder++;
            lastId = id;
            c.seqs.add(seq);
            c.latencies.push(now - ev.sent!);
            // wall clocks: this process's (timeOrigin + now) against the service's Date.now()
            c.toStore.push(indexedAt - (performance.timeOrigin + ev.sent!));
            c.fromStore.push(performance.timeOrigin + now - indexedAt);
          }
        });
      },
    );
    req.on("error", reject);
    req.end();
    c.close = () => {
      res?.destroy();
      req.destroy();
    };
  });
  return c;
}


export async function benchSse(seconds: number): Promise<void> {
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

  const service = await startService(adminKey);
  const clients: Client[] = [];
  let sent: SendResult;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  try {
    const api = new Api(service.url, adminKey);
    const sink = await createSink(api, "sse-latency");
    for (let i = 0; i < CLIENTS; i++) clients.push(sseClient(service.url, sink.id, adminKey, runId));
    await Promise.all(clients.map((c) => c.connected));
    // warm-up: compiles the component and opens the runner path; not measured
    const warm = await paced(sink.endpoint, 200, 0.5, body("warm"));
    await until(() => clients.every((c) => c.warm >= warm.accepted.size), 30_000);
    if (clients.some((c) => c.warm < warm.accepted.size)) {
      console.log(`  (warm-up: clients got ${clients.map((c) => c.warm).join(", ")} of ${warm.accepted.size} events; the runtime may not be working)`);
    }
    loop.enable();
    sent = await paced(sink.endpoint, RATE, seconds, body("live"));
    loop.disable();
    const received = () => clients.reduce((s, c) => s + c.seqs.size, 0);
    await until(() => clients.every((c) => c.seqs.size >= sent.accepted.size), 60_000, received, 5000);
  } finally {
    for (const c of clients) c.close();
    await service.stop();
  }

  const all = clients.flatMap((c) => c.latencies).sort((a, b) => a - b);
  const p50 = pct(all, 50);
  const p99 = pct(all, 99);
  const toStore = clients.flatMap((c) => c.toStore).sort((a, b) => a - b);
  const fromStore = clients.flatMap((c) => c.fromStore).sort((a, b) => a - b);
  const counts = clients.map((c) => c.seqs.size);
  const complete = counts.every((n) => n >= sent.accepted.size);
  const dupes = clients.reduce((s, c) => s + c.duplicates, 0);
  const ooo = clients.reduce((s, c) => s + c.outOfOrder, 0);
  const rows: Check[] = [
    { metric: `bare node:http round trip at ${int(RATE)}/s p50 / p99`, value: `${ms(pct(baseline.latencies, 50))} / ${ms(pct(baseline.latencies, 99))}` },
    { metric: "sent / accepted (2xx)", value: `${int(sent.sent)} / ${int(sent.accepted.size)}` },
    { metric: "achieved send rate", value: `${int(sent.sent / seconds)}/s`, target: `${int(RATE)}/s` },
    { metric: "ingress errors, non-2xx", value: `${sent.errors}, ${sent.non2xx}`, target: "0, 0", pass: sent.errors + sent.non2xx === 0 },
    { metric: "ingress round trip p50 / p99", value: `${ms(pct(sent.latencies, 50))} / ${ms(pct(sent.latencies, 99))}` },
    { metric: `SSE latency p50 (${CLIENTS} clients)`, value: ms(p50) },
    { metric: `SSE latency p99 (${CLIENTS} clients)`, value: ms(p99), target: "< 10 ms", pass: p99 < 10 },
    { metric: "SSE latency max", value: ms(all[all.length - 1] ?? NaN) },
    { metric: "  of which send -> stored (indexed_at_ms) p50 / p99", value: `${ms(pct(toStore, 50))} / ${ms(pct(toStore, 99))}` },
    { metric: "  of which stored -> received p50 / p99", value: `${ms(pct(fromStore, 50))} / ${ms(pct(fromStore, 99))}` },
    { metric: "ratio SSE p99 : bare round-trip p99", value: (p99 / pct(baseline.latencies, 99)).toFixed(1) + "x" },
    {
      metric: "messages per client (min / max)",
      value: `${int(Math.min(...counts))} / ${int(Math.max(...counts))} of ${int(sent.accepted.size)}`,
      target: "all",
      pass: complete,
    },
    { metric: "duplicates, ids out of order", value: `${dupes}, ${ooo}`, target: "0, 0", pass: dupes + ooo === 0 },
    { metric: "load generator event-loop delay p99", value: ms(loop.percentile(99) / 1e6) },
  ];
  table(`Live latency: ${int(RATE)} events/s into one source, ${CLIENTS} SSE clients (${seconds} s)`, rows);
}
