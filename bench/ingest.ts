import { load, type LoadResult } from "./load.ts";
import { startBare, startService } from "./processes.ts";
import { Api, int, ms, table, treeCpuSeconds, treeRss, mib, waitForCount, type Check } from "./util.ts";

// Ingest (issue target): autocannon POSTs a 200-byte JSON body to an HTTP source whose run
// emits that body. The figure that counts is durable events per second: events found in the
// store afterwards (page_info.total_count, once the count stops growing) divided by the load's
// duration, not requests sent. Target >= 3,000 events/s on a 2-core machine with the load
// generator on the same machine, 0 errors, p99 < 50 ms. The bare node:http server takes the
// same POSTs in the same run for the ratio.
//
// The service runs with TRIBUTARY_EVENT_RETENTION=1000000 so that no event is trimmed and the
// stored count is the real count.

export const SINK = `export default {
  name: "sink",
  props: { http: "$.interface.http" },
  run(event) { this.$emit(event.body) },
}`;

export const MAIN_CONNECTIONS = 50;
const SIDE_CONNECTIONS = 10;

/** a JSON body of exactly `bytes` bytes */
export function paddedBody(fields: Record<string, unknown>, bytes: number): string {
  const base = JSON.stringify({ ...fields, pad: "" });
  if (base.length > bytes) throw new Error(`fields alone are ${base.length} bytes`);
  return JSON.stringify({ ...fields, pad: "x".repeat(bytes - base.length) });
}

export async function createSink(api: Api, name: string): Promise<{ id: string; endpoint: string }> {
  const res = await api.call<{ data: { id: string; configured_props: { http: { endpoint_url: string } } } }>("POST", "/v1/sources/", {
    component_code: SINK,
    name,
  });
  return { id: res.data.id, endpoint: res.data.configured_props.http.endpoint_url };
}

interface IngestRun {
  load: LoadResult;
  stored: number;
  /** events already stored when the load stopped */
  storedAtLoadEnd: number;
  drainMs: number;
  /** CPU seconds of the service and its runners from the load's start to the drain's end */
  cpuSeconds: number;
  wallSeconds: number;
  /** peak summed RSS of the service and its runners, sampled every 500 ms */
  peakRss: number;
}

async function ingestOnce(api: Api, pid: number, connections: number, seconds: number, body: string, name: string): Promise<IngestRun> {
  const sink = await createSink(api, name);
  const headers = { "content-type": "application/json" };
  // warm-up: the first run of a component compiles it; that isn't what this bench measures
  for (let i = 0; i < 20; i++) {
    const r = await fetch(sink.endpoint, { method: "POST", headers, body });
    await r.text();
  }
  const warm = await waitForCount(() => api.eventCount(sink.id), { expected: 20, quietMs: 5000, timeoutMs: 30_000 });
  if (warm.count < 20) {
    console.log(`  (warm-up: only ${warm.count} of 20 events stored after the warm-up requests; the runtime may not be working)`);
  }
  const before = warm.count;
  const cpu0 = treeCpuSeconds(pid);
  const t0 = Date.now();
  let peakRss = treeRss(pid).bytes;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(pid).bytes)), 500);
  const r = await load({ url: sink.endpoint, connections, seconds, method: "POST", headers, body });
  const loadEnd = Date.now();
  const atLoadEnd = (await api.eventCount(sink.id)) - before;
  // every 2xx must become an event; requests still in flight when autocannon stopped may add a few
  const done = await waitForCount(() => api.eventCount(sink.id), { expected: before + r.ok, quietMs: 5000, timeoutMs: 300_000 }).finally(
    () => clearInterval(sampler),
  );
  const drainEnd = Math.max(loadEnd, done.lastGrowthAt);
  return {
    load: r,
    stored: done.count - before,
    storedAtLoadEnd: atLoadEnd,
    drainMs: drainEnd - loadEnd,
    cpuSeconds: treeCpuSeconds(pid) - cpu0,
    wallSeconds: (Date.now() - t0) / 1000,
    peakRss,
  };
}

export async function benchIngest(seconds: number): Promise<void> {
  const body = paddedBody({ kind: "ingest", source: "autocannon" }, 200);
  const adminKey = "bench-admin-key-" + Date.now();

  const bare = await startBare();
  let baseline: LoadResult;
  try {
    baseline = await load({ url: bare.url, connections: MAIN_CONNECTIONS, seconds, method: "POST", headers: { "content-type": "application/json" }, body });
  } finally {
    await bare.stop();
  }

  const service = await startService(adminKey, { TRIBUTARY_EVENT_RETENTION: "1000000" });
  const pid = service.child.pid!;
  let main: IngestRun;
  let side: IngestRun | undefined;
  try {
    const api = new Api(service.url, adminKey);
    main = await ingestOnce(api, pid, MAIN_CONNECTIONS, seconds, body, "ingest-main");
    side = await ingestOnce(api, pid, SIDE_CONNECTIONS, seconds, body, "ingest-side").catch((err) => {
      console.log(`  (the ${SIDE_CONNECTIONS}-connection run failed: ${(err as Error).message})`);
      return undefined;
    });
  } finally {
    await service.stop();
  }

  const eps = (x: IngestRun) => x.stored / x.load.durationS;
  // the rate the runs keep up with: everything stored, over the load plus the drain after it
  const sustained = (x: IngestRun) => x.stored / (x.load.durationS + x.drainMs / 1000);
  const lost = (x: IngestRun) => Math.max(0, x.load.ok - x.stored);
  const rows: Check[] = [
    { metric: `bare node:http POST 200 B (${MAIN_CONNECTIONS} conn)`, value: `${int(baseline.rps)} req/s` },
    { metric: "bare p50 / p99", value: `${baseline.p50} / ${baseline.p99} ms` },
    { metric: `service POST /http/{key} (${MAIN_CONNECTIONS} conn)`, value: `${int(main.load.rps)} req/s` },
    { metric: "service p50", value: `${main.load.p50} ms` },
    { metric: "service p99", value: `${main.load.p99} ms`, target: "< 50 ms", pass: main.load.p99 < 50 },
    { metric: "errors + timeouts", value: String(main.load.errors), target: "0", pass: main.load.errors === 0 },
    { metric: "non-2xx", value: String(main.load.non2xx), target: "0", pass: main.load.non2xx === 0 },
    { metric: "requests answered 2xx", value: int(main.load.ok) },
    // the client's pace follows the runs': past the backlog bound, answers wait for room
    {
      metric: "2xx/s : sustained events/s (runs' pace)",
      value: (main.load.rps / sustained(main)).toFixed(2),
      target: ">= 0.9",
      pass: main.load.rps / sustained(main) >= 0.9,
    },
    { metric: "events stored", value: int(main.stored) },
    { metric: "stored beyond the 2xx (in flight at the stop)", value: int(Math.max(0, main.stored - main.load.ok)) },
    { metric: "accepted (2xx) but not stored (lost)", value: int(lost(main)), target: "0", pass: lost(main) === 0 },
    { metric: "durable events/s (stored / load time)", value: int(eps(main)), target: ">= 3,000", pass: eps(main) >= 3000 },
    { metric: "ratio events/s : bare req/s", value: (eps(main) / baseline.rps).toFixed(2) },
    { metric: "events stored when the load stopped", value: `${int(main.storedAtLoadEnd)} (${int(main.storedAtLoadEnd / main.load.durationS)}/s)` },
    { metric: "drain: last event stored after load ended", value: ms(main.drainMs) },
    {
      metric: "sustained events/s (stored / (load + drain))",
      value: int(sustained(main)),
      target: ">= 3,000",
      pass: sustained(main) >= 3000,
    },
    { metric: "CPU of service + runners (load + drain)", value: `${(main.cpuSeconds / main.wallSeconds).toFixed(2)} cores` },
    { metric: "peak RSS of service + runners", value: mib(main.peakRss) },
  ];
  if (side) {
    rows.push(
      { metric: `(${SIDE_CONNECTIONS} conn) req/s, p50 / p99`, value: `${int(side.load.rps)} req/s, ${side.load.p50} / ${side.load.p99} ms` },
      {
        metric: `(${SIDE_CONNECTIONS} conn) events/s: durable, sustained`,
        value: `${int(eps(side))}, ${int(sustained(side))}`,
      },
      { metric: `(${SIDE_CONNECTIONS} conn) drain, lost`, value: `${ms(side.drainMs)}, ${int(lost(side))}` },
      { metric: `(${SIDE_CONNECTIONS} conn) errors, non-2xx`, value: `${side.load.errors}, ${side.load.non2xx}` },
    );
  }
  table(`Ingest: 200 B JSON POSTs to an HTTP source that emits the body (${seconds} s)`, rows);
}
