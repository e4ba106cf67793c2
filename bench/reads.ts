import { load, type LoadResult } from "./load.ts";
import { startBare, startService } from "./processes.ts";
import { Api, int, table, waitForCount, type Check } from "./util.ts";

// Reads independent of history (issue target): the p99 of GET /v1/sources/{id}/event_summaries?limit=100
// on a stream of 100 retained events and on one of 100,000 retained events, under the same load
// (autocannon, 10 connections, --seconds each), with the bare node:http server measured in the
// same run as the yardstick. Target: p99 at 100,000 within 1.5x of the p99 at 100 (a page reads
// its 100 rows from the index and total_count from the stream's counter, not count(*)).
//
// The streams are filled by runs of a source that emits `n` events per run (POST /run), so the
// big one fills in a few seconds; TRIBUTARY_EVENT_RETENTION=1000000 keeps every event.

const FILLER = `export default {
  name: "filler",
  run(event) {
    const n = (event && event.n) || 0;
    for (let i = 0; i < n; i++) this.$emit({ i, text: "a retained event of a long history" });
  },
}`;

const SMALL = 100;
const LARGE = 100_000;
const PER_RUN = 1000; // the most $emit calls one invocation may make
const CONNECTIONS = 10;

async function fill(api: Api, name: string, events: number): Promise<{ id: string; fillMs: number }> {
  const src = await api.call<{ data: { id: string } }>("POST", "/v1/sources/", { component_code: FILLER, name });
  const t0 = Date.now();
  for (let left = events; left > 0; left -= PER_RUN) {
    await api.call("POST", `/v1/sources/${src.data.id}/run`, { event: { n: Math.min(PER_RUN, left) } });
  }
  const done = await waitForCount(() => api.eventCount(src.data.id), { expected: events, quietMs: 10_000, timeoutMs: 300_000 });
  if (done.count !== events) throw new Error(`${name}: ${done.count} of ${events} events stored`);
  return { id: src.data.id, fillMs: Date.now() - t0 };
}

export async function benchReads(seconds: number): Promise<void> {
  const adminKey = "bench-admin-key-" + Date.now();

  const bare = await startBare();
  let baseline: LoadResult;
  try {
    baseline = await load({ url: bare.url, connections: CONNECTIONS, seconds });
  } finally {
    await bare.stop();
  }

  const service = await startService(adminKey, { TRIBUTARY_EVENT_RETENTION: "1000000" });
  let small: LoadResult;
  let large: LoadResult;
  let smallAgain: LoadResult;
  let fillMs: number;
  try {
    const api = new Api(service.url, adminKey);
    const a = await fill(api, "reads-small", SMALL);
    const b = await fill(api, "reads-large", LARGE);
    fillMs = b.fillMs;
    const page = (id: string) => ({
      url: `${service.url}/v1/sources/${id}/event_summaries?limit=100`,
      connections: CONNECTIONS,
      seconds,
      headers: { authorization: `Bearer ${adminKey}` },
    });
    await load({ ...page(a.id), seconds: 1 }); // warm-up
    small = await load(page(a.id));
    large = await load(page(b.id));
    // the small stream again after the large: a drift of the machine shows as a change here
    smallAgain = await load(page(a.id));
  } finally {
    await service.stop();
  }

  // against the better of the two small runs, so a noisy first run can't flatter the large one
  const ratio = large.p99 / Math.max(1, Math.min(small.p99, smallAgain.p99));
  const row = (label: string, r: LoadResult): Check[] => [
    { metric: `${label}: req/s (ratio to bare)`, value: `${int(r.rps)} (${(r.rps / baseline.rps).toFixed(2)})` },
    { metric: `${label}: p50 / p99`, value: `${r.p50} / ${r.p99} ms` },
    { metric: `${label}: errors, non-2xx`, value: `${r.errors}, ${r.non2xx}`, target: "0, 0", pass: r.errors + r.non2xx === 0 },
  ];
  const rows: Check[] = [
    { metric: `bare node:http GET (${CONNECTIONS} conn)`, value: `${int(baseline.rps)} req/s` },
    { metric: "bare p50 / p99", value: `${baseline.p50} / ${baseline.p99} ms` },
    { metric: `filling ${int(LARGE)} events (runs of ${int(PER_RUN)} emits)`, value: `${(fillMs / 1000).toFixed(1)} s` },
    ...row(`${int(SMALL)} retained`, small),
    ...row(`${int(LARGE)} retained`, large),
    ...row(`${int(SMALL)} retained, again`, smallAgain),
    { metric: `p99 ratio ${int(LARGE)} : ${int(SMALL)} retained (best of both)`, value: `${ratio.toFixed(2)}x`, target: "<= 1.5x", pass: ratio <= 1.5 },
    { metric: `p50 ratio ${int(LARGE)} : ${int(SMALL)} retained`, value: `${(large.p50 / Math.max(1, Math.min(small.p50, smallAgain.p50))).toFixed(2)}x` },
  ];
  table(`Reads: event_summaries?limit=100 at ${int(SMALL)} and ${int(LARGE)} retained events (${CONNECTIONS} conn, ${seconds} s each)`, rows);
}
