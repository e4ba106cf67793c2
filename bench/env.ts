import { performance } from "node:perf_hooks";
import { startService } from "./processes.ts";
import { Api, int, mib, ms, pct, table, treeRss, waitForCount } from "./util.ts";

// Environment variables under load (the `env` bench): one user's variables must not slow the
// others. A user floods run-now of a source of theirs (4 requests at once, in a loop) while
// another user's run-now requests and GET /healthz are timed one after another. Once with a
// flooder who has no variables (the yardstick), once with one at the per-user limit (64
// variables of 4 KiB, 256 KiB of names and values, core/env-vars/env-vars.ts), in two
// interleaved rounds each. Each phase is bounded by --seconds (10 by default) and FLOOD_MAX
// requests; the flood's runs drain (untimed) before the next phase. Target: the timed p99s with
// the variables within 1.5x of those without.

const FLOOD_CONCURRENCY = 4;
const FLOOD_MAX = 4000;
const ROUNDS = 2;
const LIMIT_BYTES = 256 * 1024;
const VARIABLES = 64;
const TARGET_RATIO = 1.5;

/** reads process.env every run, as a component that uses its variables does */
const SOURCE = `export default { run() { this.$emit({ vars: Object.keys(process.env).length, v: (process.env.V000 ?? "").length }); } };`;

/** names V000.. and values summing, with the names, to exactly the limit */
function atTheLimit(): Record<string, string> {
  const each = LIMIT_BYTES / VARIABLES;
  const env: Record<string, string> = {};
  for (let i = 0; i < VARIABLES; i++) {
    const name = `V${String(i).padStart(3, "0")}`;
    env[name] = String.fromCharCode(97 + (i % 26)).repeat(each - name.length);
  }
  return env;
}

interface Phase {
  other: number[];
  health: number[];
  flood: number;
  floodFailed: number;
  seconds: number;
  drainMs: number;
  runs: number;
}

async function timed(url: string, init: RequestInit): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status}`);
  return performance.now() - t0;
}

async function phase(base: string, flooder: { api: Api; source: string }, other: { api: Api; source: string }, seconds: number): Promise<Phase> {
  const post = (api: Api) => ({ method: "POST", headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" }, body: "{}" });
  const before = await flooder.api.eventCount(flooder.source);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let sent = 0;
  let failed = 0;
  const floodLoop = async () => {
    while (performance.now() < deadline && sent < FLOOD_MAX) {
      sent++;
      const res = await fetch(`${base}/v1/sources/${flooder.source}/run`, post(flooder.api));
      await res.text();
      if (res.status !== 202) failed++;
    }
  };
  const flooding = Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, floodLoop));
  let floodDone = false;
  void flooding.then(() => (floodDone = true));
  const otherMs: number[] = [];
  const healthMs: number[] = [];
  while (!floodDone) {
    otherMs.push(await timed(`${base}/v1/sources/${other.source}/run`, post(other.api)));
    healthMs.push(await timed(`${base}/healthz`, {}));
  }
  await flooding;
  const loadEnd = performance.now();
  // waitForCount says when the count last grew in Date.now() time
  const loadEndAt = Date.now();
  const drained = await waitForCount(async () => (await flooder.api.eventCount(flooder.source)) - before, { expected: sent - failed, quietMs: 5000, timeoutMs: 300_000 });
  return {
    other: otherMs.sort((a, b) => a - b),
    health: healthMs.sort((a, b) => a - b),
    flood: sent,
    floodFailed: failed,
    seconds: (loadEnd - started) / 1000,
    drainMs: Math.max(0, drained.lastGrowthAt - loadEndAt),
    runs: drained.count,
  };
}

export async function benchEnv(seconds: number): Promise<void> {
  const adminKey = "bench-admin-key-" + Date.now();
  // every flood run's event is kept, so the runs are counted from the stream
  const service = await startService(adminKey, { TRIBUTARY_EVENT_RETENTION: "1000000" });
  const pid = service.child.pid!;
  let peakRss = 0;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, treeRss(pid).bytes)), 500);
  try {
    const admin = new Api(service.url, adminKey);
    const user = async (name: string) => {
      const made = await admin.call<{ data: { api_key: string } }>("POST", "/v1/users", { username: name, email: `${name}@example.com` });
      const api = new Api(service.url, made.data.api_key);
      const src = await api.call<{ data: { id: string } }>("POST", "/v1/sources", { component_code: SOURCE });
      return { api, source: src.data.id };
    };
    const plain = await user("flooder-plain");
    const heavy = await user("flooder-env");
    const other = await user("other");
    const env = atTheLimit();
    for (const [name, value] of Object.entries(env)) await heavy.api.call("PUT", `/v1/users/me/env/${name}`, { value });
    // one more byte is refused: the user is at the limit
    const over = await fetch(`${service.url}/v1/users/me/env/ONE_MORE`, { method: "PUT", headers: { authorization: `Bearer ${heavy.api.key}`, "content-type": "application/json" }, body: JSON.stringify({ value: "" }) });
    await over.text();
    // warm: each source compiled and run once
    for (const u of [plain, heavy, other]) {
      await u.api.call("POST", `/v1/sources/${u.source}/run`, {});
      await waitForCount(() => u.api.eventCount(u.source), { expected: 1, timeoutMs: 30_000 });
    }
    const without: Phase[] = [];
    const withEnv: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await phase(service.url, plain, other, seconds));
      withEnv.push(await phase(service.url, heavy, other, seconds));
    }
    const errors = async (u: typeof heavy) => (await u.api.call<{ page_info: { total_count: number } }>("GET", `/v1/sources/${u.source}/event_summaries?limit=1&event_name=%24errors`)).page_info.total_count;
    const last = await heavy.api.call<{ data: Array<{ event: { vars: number; v: number } }> }>("GET", `/v1/sources/${heavy.source}/event_summaries?limit=1&expand=event`);
    const seen = last.data[0]?.event;
    const merged = (ps: Phase[], key: "other" | "health") => ps.flatMap((p) => p[key]).sort((a, b) => a - b);
    const runsPerSecond = (ps: Phase[]) => ps.reduce((n, p) => n + p.runs, 0) / ps.reduce((s, p) => s + p.seconds + p.drainMs / 1000, 0);
    const rows = [];
    rows.push({ metric: "flooder at the limit: variables, bytes of names and values", value: `${VARIABLES}, ${int(LIMIT_BYTES)}` });
    rows.push({ metric: "one more variable past the limit", value: String(over.status), target: "409", pass: over.status === 409 });
    rows.push({ metric: "flood run-now requests (without / with variables)", value: `${int(without.reduce((n, p) => n + p.flood, 0))} / ${int(withEnv.reduce((n, p) => n + p.flood, 0))}` });
    rows.push({ metric: "flood requests not 202 (without / with)", value: `${without.reduce((n, p) => n + p.floodFailed, 0)} / ${withEnv.reduce((n, p) => n + p.floodFailed, 0)}` });
    rows.push({ metric: "flood runs failed, on $errors (without / with)", value: `${await errors(plain)} / ${await errors(heavy)}`, target: "0 / 0", pass: (await errors(plain)) + (await errors(heavy)) === 0 });
    const sawAll = seen?.vars === VARIABLES && seen.v === LIMIT_BYTES / VARIABLES - 4;
    rows.push({ metric: "the last flood run saw its variables (count, V000's length)", value: `${seen?.vars}, ${seen?.v}`, target: `${VARIABLES}, ${LIMIT_BYTES / VARIABLES - 4}`, pass: sawAll });
    rows.push({ metric: "flood runs/s, load and drain (without / with)", value: `${int(runsPerSecond(without))} / ${int(runsPerSecond(withEnv))}` });
    for (const [label, key] of [["another user's run-now", "other"], ["GET /healthz", "health"]] as const) {
      const a = merged(without, key);
      const b = merged(withEnv, key);
      rows.push({ metric: `${label}: timed requests (without / with)`, value: `${a.length} / ${b.length}` });
      rows.push({ metric: `${label} p50 without variables`, value: ms(pct(a, 50)) });
      rows.push({ metric: `${label} p50 with variables`, value: ms(pct(b, 50)) });
      rows.push({ metric: `${label} p99 without variables`, value: ms(pct(a, 99)) });
      rows.push({ metric: `${label} p99 with variables`, value: ms(pct(b, 99)) });
      const ratio = pct(b, 99) / pct(a, 99);
      rows.push({ metric: `${label} p99 ratio with / without`, value: `${ratio.toFixed(2)}x`, target: `<= ${TARGET_RATIO}x`, pass: ratio <= TARGET_RATIO });
      rows.push({ metric: `${label} p50 ratio with / without`, value: `${(pct(b, 50) / pct(a, 50)).toFixed(2)}x` });
    }
    rows.push({ metric: "peak RSS, service and runners", value: mib(peakRss) });
    table(`Env vars: a user at the limit (256 KiB) floods run-now ${FLOOD_CONCURRENCY} at once; another user's run-now and /healthz timed (${ROUNDS} rounds of ${seconds} s per case)`, rows);
  } finally {
    clearInterval(rssTimer);
    await service.stop();
  }
}
