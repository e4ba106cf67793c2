import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { MAIN_CONNECTIONS } from "./ingest.ts";
import { load } from "./load.ts";
import { paced } from "./paced.ts";
import { benchSuspended, describeSuspended, type SuspendedResult } from "./suspended.ts";
import { freePort, startBare, startService, type Running } from "./processes.ts";
import { Api, int, ms, pct, sleep, table, treeCpuSeconds, type Check } from "./util.ts";
import { API_DELAY_MS, ioRows, ioSteps, manyAwaiting, RESTATE_IO_HANDLER, SLOW_API_DELAY_MS, startSlowApi, type ManyResult, type SlowApi } from "./workflows-io.ts";

// Workflows beside Restate: the same 3-step computation as a Tributary workflow and as
// a Restate service handler, measured in the same run with the same load generator, interleaved:
// ours, Restate, ours, Restate, ours, Restate (3 rounds), both systems up for the whole bench.
//
// The work: POST {"n": 7}; step 1 returns n + 1, step 2 doubles it, step 3 adds 3 and answers
// {"value": 19}. Ours is a workflow with an HTTP trigger {"type": "http", "custom_response": true}
// whose last step calls $.respond({ body: { value } }); each step is an invocation of its own whose
// result (the step's row, the run's state) commits before the next step starts. Restate's handler runs each step in ctx.run(...),
// so each step's result is journalled before the next starts; it is called through the ingress
// (POST /Bench/three), which answers when the invocation has completed.
//
// Each round, for each system: (1) throughput: autocannon, 50 connections, closed loop, --seconds;
// every answer's status and body are checked (autocannon's onResponse) and a run counts only with
// a 2xx whose JSON body has value 19. (2) 200 sequential requests (fetch, keep-alive), median.
// (3) a paced 100 req/s for --seconds (paced.ts), p99 (answers counted by status there).
// (4) step overhead: 200 sequential requests to a 1-step and a 40-step chain (each step +1),
// (median40 - median1) / 39. Targets: (1) ours >= 5x Restate's runs/s, (2) and (3) ours <= 1.0x
// Restate's, (4) <= 1 ms per step. Aggregates: (1) the median of the 3 rounds, (2)-(4) the
// percentiles of the 3 rounds' samples pooled. The bare node:http yardstick is measured first.
//
// Restate is installed from the npm registry into a temp folder the first time and reused after:
// `npm install --no-save --ignore-scripts --prefix <tmp>/tributary-bench-restate
// @restatedev/restate-server@1 @restatedev/restate-sdk@1` (the server's binary ships inside
// @restatedev/restate-server-<os>-<arch>, an optional dependency; --ignore-scripts skips a
// dependency's analytics postinstall). restate-server runs as one node with its defaults, on free
// loopback ports (RESTATE_INGRESS__BIND_ADDRESS, RESTATE_ADMIN__BIND_ADDRESS,
// RESTATE_BIND_ADDRESS) and a fresh --base-dir, with telemetry off (RESTATE_DISABLE_TELEMETRY);
// it also looks up its latest release on GitHub once at start, which fails without a network
// (that log line is filtered out). The service is a Node process (this Node) in that folder,
// `restate.endpoint().bind(service).http2Handler()` on 127.0.0.1, registered with
// POST <admin>/deployments. Without the registry, or without a binary for this platform, the
// bench prints `Restate: SKIPPED (<why>)`, measures ours, and the comparisons are MISS (unknown).
//
// Durability differs, and the output says so: ours commits each step in SQLite with
// synchronous=NORMAL (no fsync per commit); Restate fsyncs its log's RocksDB WAL by default.
// `--restate-fsync=off` starts Restate with that fsync off (RESTATE_LOG_SERVER__ and
// RESTATE_BIFROST__LOCAL__ROCKSDB_DISABLE_WAL_FSYNC=true): both then survive a crash of the
// process, not necessarily of the machine.

const RESTATE_DIR = join(tmpdir(), "tributary-bench-restate");
const RESTATE_PACKAGES = ["@restatedev/restate-server@1", "@restatedev/restate-sdk@1"];
const RESTATE_BIN = join(RESTATE_DIR, "node_modules", "@restatedev", `restate-server-${platform()}-${arch()}`, "bin", "restate-server");
const RESTATE_SDK = join(RESTATE_DIR, "node_modules", "@restatedev", "restate-sdk", "package.json");

const ROUNDS = 3;
const SEQUENTIAL = 200;
const PACED_RATE = 100;
const CHAIN = 40;
const INPUT = 7;
const THREE_VALUE = (INPUT + 1) * 2 + 3;
const JSON_HEADERS = { "content-type": "application/json" };

// ---- the two implementations of the same steps ----

const step = (name: string, expr: string, respond: boolean) => ({
  name,
  code: respond
    ? `export default { async run({ steps, $ }) { const value = ${expr}; $.respond({ body: { value } }); return value; } }`
    : `export default { async run({ steps }) { return ${expr}; } }`,
});

const THREE_STEPS = [
  step("s1", "steps.trigger.event.body.n + 1", false),
  step("s2", "steps.s1.$return_value * 2", false),
  step("s3", "steps.s2.$return_value + 3", true),
];

/** k steps, each adding 1 to the one before (the first to the trigger's n); the last responds */
const chainSteps = (k: number) =>
  Array.from({ length: k }, (_, i) => step(`s${i + 1}`, i === 0 ? "steps.trigger.event.body.n + 1" : `steps.s${i}.$return_value + 1`, i === k - 1));

const RESTATE_SERVICE = `import * as restate from "@restatedev/restate-sdk";
import { createServer } from "node:http2";

const bench = restate.service({
  name: "Bench",
  handlers: {
    three: async (ctx, input) => {
      const a = await ctx.run("s1", () => input.n + 1);
      const b = await ctx.run("s2", () => a * 2);
      const value = await ctx.run("s3", () => b + 3);
      return { value };
    },
    ${RESTATE_IO_HANDLER}
    chain: async (ctx, input) => {
      let value = input.n;
      for (let i = 1; i <= input.steps; i++) {
        const prev = value;
        value = await ctx.run("s" + i, () => prev + 1);
      }
      return { value };
    },
  },
});
const server = createServer(restate.endpoint().bind(bench).http2Handler());
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("listening\\n"));
process.on("SIGTERM", () => process.exit(0));
`;

// ---- Restate: install, start, stop ----

function restateVersion(pkg: string): string {
  try {
    return JSON.parse(readFileSync(join(RESTATE_DIR, "node_modules", ...pkg.split("/"), "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

/** undefined when installed; otherwise why not */
function installRestate(): string | undefined {
  if (existsSync(RESTATE_BIN) && existsSync(RESTATE_SDK)) return undefined;
  mkdirSync(RESTATE_DIR, { recursive: true });
  console.log(`  (installing ${RESTATE_PACKAGES.join(" ")} into ${RESTATE_DIR}, once)`);
  const r = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", RESTATE_DIR, ...RESTATE_PACKAGES], {
    encoding: "utf8",
    timeout: 300_000,
  });
  if (r.status !== 0) {
    // npm's error code and the line saying what failed (a fetch: no network to the registry?)
    const lines = `${r.error?.message ?? ""}\n${r.stderr ?? ""}`.split("\n").map((l) => l.replace(/^npm error /, "").trim());
    const code = lines.map((l) => /^code (\S+)/.exec(l)?.[1]).find(Boolean);
    const what = lines.find((l) => /request to|reason:|ETARGET|E404|No matching|notarget/i.test(l)) ?? lines.filter(Boolean).at(-1) ?? "";
    return `npm install failed${code ? ` (${code})` : ""}: ${what.slice(0, 160) || `npm exited ${r.status}`}`;
  }
  if (!existsSync(RESTATE_SDK)) return "npm installed no @restatedev/restate-sdk";
  if (!existsSync(RESTATE_BIN)) return `no restate-server binary for ${platform()}-${arch()} in the npm packages (they ship linux and darwin, x64 and arm64)`;
  return undefined;
}

interface Restate {
  ingress: string;
  admin: string;
  pids: number[];
  versions: string;
  stop(): Promise<void>;
}

/** the last lines a process printed, kept for an error message */
function keepTail(child: ChildProcess, lines: string[], max = 20): void {
  const add = (d: Buffer) => {
    lines.push(...d.toString("utf8").split("\n").filter((l) => l.trim()));
    if (lines.length > max) lines.splice(0, lines.length - max);
  };
  child.stdout?.on("data", add);
  child.stderr?.on("data", add);
}

function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function waitFor(what: string, child: ChildProcess, log: string[], timeoutMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${log.slice(-5).join(" / ")}`);
    try {
      if (await ready()) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs / 1000} s: ${log.slice(-5).join(" / ")}`);
    await sleep(200);
  }
}

async function startRestate(fsync: boolean): Promise<Restate> {
  const [ingressPort, adminPort, nodePort, servicePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const baseDir = mkdtempSync(join(tmpdir(), "tributary-bench-restate-data-"));
  const serverLog: string[] = [];
  const server = spawn(RESTATE_BIN, ["--no-logo", "--base-dir", baseDir], {
    cwd: baseDir,
    env: {
      ...process.env,
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${nodePort}`,
      RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${nodePort}/`,
      RESTATE_LISTEN_MODE: "tcp",
      RESTATE_DISABLE_TELEMETRY: "true",
      RESTATE_LOG_FILTER: "warn,octocrab=off",
      RESTATE_LOG_DISABLE_ANSI_CODES: "true",
      ...(fsync ? {} : { RESTATE_LOG_SERVER__ROCKSDB_DISABLE_WAL_FSYNC: "true", RESTATE_BIFROST__LOCAL__ROCKSDB_DISABLE_WAL_FSYNC: "true" }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  keepTail(server, serverLog);
  const serviceFile = join(RESTATE_DIR, "bench-workflows-service.mjs");
  writeFileSync(serviceFile, RESTATE_SERVICE);
  const serviceLog: string[] = [];
  const service = spawn(process.execPath, [serviceFile], {
    cwd: RESTATE_DIR,
    env: { ...process.env, PORT: String(servicePort), RESTATE_LOGGING: "WARN" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  keepTail(service, serviceLog);
  const stop = async () => {
    await Promise.all([stopChild(service, 5000), stopChild(server)]);
    rmSync(baseDir, { recursive: true, force: true });
  };
  const ingress = `http://127.0.0.1:${ingressPort}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  try {
    await waitFor("restate-server", server, serverLog, 60_000, async () => (await fetch(`${admin}/health`)).ok);
    await waitFor("the Restate service", service, serviceLog, 30_000, async () => serviceLog.some((l) => l.includes("listening")));
    const reg = await fetch(`${admin}/deployments`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ uri: `http://127.0.0.1:${servicePort}` }) });
    const regText = await reg.text();
    if (!reg.ok) throw new Error(`registering the deployment: ${reg.status} ${regText.slice(0, 300)}`);
    // the first invocation waits for the partitions' leaders
    await waitFor("Restate's ingress", server, serverLog, 60_000, async () => {
      const res = await fetch(`${ingress}/Bench/three`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ n: INPUT }), signal: AbortSignal.timeout(10_000) });
      return res.ok && valueOf(await res.text()) === THREE_VALUE;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const bin = spawnSync(RESTATE_BIN, ["--version"], { encoding: "utf8" }).stdout.trim() || `restate-server ${restateVersion("@restatedev/restate-server")}`;
  const versions = `${bin}, @restatedev/restate-sdk ${restateVersion("@restatedev/restate-sdk")}; one node, defaults, log WAL fsync ${fsync ? "on" : "off"}`;
  return { ingress, admin, pids: [server.pid!, service.pid!], versions, stop };
}

// ---- load and measurement ----

/** what a system is called with: a URL, the body sent, and the value its answer must carry */
interface Target {
  url: string;
  body: string;
  expected: number;
}

interface System {
  name: string;
  three: Target;
  /** the I/O variant: 3 steps each awaiting the local API (workflows-io.ts) */
  io: Target;
  chain1: Target;
  chain40: Target;
  /** processes whose CPU time is this system's */
  pids: number[];
}

function valueOf(text: string): unknown {
  try {
    return JSON.parse(text)?.value;
  } catch {
    return undefined;
  }
}

interface Closed {
  /** 2xx answers whose body carried the expected value: completed runs */
  good: number;
  /** 2xx answers whose body didn't */
  badBody: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p99: number;
  /** CPU ms (user + system) of the system's processes per completed run */
  cpuMsPerRun: number;
}

async function closedLoop(t: Target, seconds: number, pids: number[]): Promise<Closed> {
  const u = new URL(t.url);
  let good = 0;
  let badBody = 0;
  const cpu0 = pids.reduce((s, p) => s + treeCpuSeconds(p), 0);
  const r = await autocannon({
    url: u.origin,
    connections: MAIN_CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: u.pathname,
        headers: JSON_HEADERS,
        body: t.body,
        onResponse: (status: number, body: string) => {
          if (status < 200 || status > 299) return;
          if (valueOf(body) === t.expected) good++;
          else badBody++;
        },
      },
    ],
  });
  const cpu = pids.reduce((s, p) => s + treeCpuSeconds(p), 0) - cpu0;
  return { good, badBody, non2xx: r.non2xx, errors: r.errors + r.timeouts, seconds: r.duration, p99: r.latency.p99, cpuMsPerRun: (cpu * 1000) / Math.max(1, good) };
}

/** n requests one at a time; the round trips (ms) of those answered 2xx with the expected value */
async function sequential(t: Target, n: number): Promise<{ latencies: number[]; bad: number }> {
  const latencies: number[] = [];
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    try {
      const res = await fetch(t.url, { method: "POST", headers: JSON_HEADERS, body: t.body, signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      const took = performance.now() - t0;
      if (res.ok && valueOf(text) === t.expected) latencies.push(took);
      else bad++;
    } catch {
      bad++;
    }
  }
  return { latencies, bad };
}

interface Tally {
  closed: Closed[];
  /** the I/O variant's closed loops */
  io: Closed[];
  seq: number[];
  seqBad: number;
  paced: number[];
  pacedSent: number;
  pacedBad: number;
  chain1: number[];
  chain40: number[];
  chainBad: number;
  /** why the measurements stopped (Restate stopped answering), if they did */
  failed?: string;
}

const newTally = (): Tally => ({ closed: [], io: [], seq: [], seqBad: 0, paced: [], pacedSent: 0, pacedBad: 0, chain1: [], chain40: [], chainBad: 0 });
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const median = (a: number[]) => pct(sorted(a), 50);

async function warmUp(s: System, seconds: number): Promise<void> {
  await sequential(s.three, 30);
  await sequential(s.io, 10);
  await sequential(s.chain1, 30);
  await sequential(s.chain40, 10);
  await closedLoop(s.three, Math.min(2, seconds), []);
  await sleep(1000);
}

async function round(s: System, seconds: number, t: Tally): Promise<void> {
  t.closed.push(await closedLoop(s.three, seconds, s.pids));
  await sleep(2000); // let what the load left behind settle
  t.io.push(await closedLoop(s.io, seconds, s.pids));
  await sleep(1000);
  const seq = await sequential(s.three, SEQUENTIAL);
  t.seq.push(...seq.latencies);
  t.seqBad += seq.bad;
  const p = await paced(s.three.url, PACED_RATE, seconds, () => s.three.body);
  t.paced.push(...p.latencies);
  t.pacedSent += p.sent;
  t.pacedBad += p.errors + p.non2xx;
  const one = await sequential(s.chain1, SEQUENTIAL);
  const forty = await sequential(s.chain40, SEQUENTIAL);
  t.chain1.push(...one.latencies);
  t.chain40.push(...forty.latencies);
  t.chainBad += one.bad + forty.bad;
}

// ---- the bench ----

async function createOurs(service: Running, adminKey: string, apiUrl: string): Promise<{ system: System; api: Api; threeId: string }> {
  const api = new Api(service.url, adminKey);
  const create = async (name: string, steps: ReturnType<typeof step>[]) => {
    const res = await api.call<{ data: { id: string; trigger: { endpoint_url: string } } }>("POST", "/v1/workflows", {
      name,
      trigger: { type: "http", custom_response: true },
      steps,
    });
    return res.data;
  };
  const body = JSON.stringify({ n: INPUT });
  const three = await create("bench-three-steps", THREE_STEPS);
  const one = await create("bench-chain-1", chainSteps(1));
  const forty = await create(`bench-chain-${CHAIN}`, chainSteps(CHAIN));
  const io = await create("bench-io", ioSteps(apiUrl));
  return {
    api,
    threeId: three.id,
    system: {
      name: "Tributary",
      three: { url: three.trigger.endpoint_url, body, expected: THREE_VALUE },
      io: { url: io.trigger.endpoint_url, body, expected: INPUT + 3 },
      chain1: { url: one.trigger.endpoint_url, body, expected: INPUT + 1 },
      chain40: { url: forty.trigger.endpoint_url, body, expected: INPUT + CHAIN },
      pids: [service.child.pid!],
    },
  };
}

function restateSystem(r: Restate, apiUrl: string): System {
  return {
    name: "Restate",
    three: { url: `${r.ingress}/Bench/three`, body: JSON.stringify({ n: INPUT }), expected: THREE_VALUE },
    io: { url: `${r.ingress}/Bench/io`, body: JSON.stringify({ n: INPUT, url: apiUrl }), expected: INPUT + 3 },
    chain1: { url: `${r.ingress}/Bench/chain`, body: JSON.stringify({ n: INPUT, steps: 1 }), expected: INPUT + 1 },
    chain40: { url: `${r.ingress}/Bench/chain`, body: JSON.stringify({ n: INPUT, steps: CHAIN }), expected: INPUT + CHAIN },
    pids: r.pids,
  };
}

/** the newest run of the workflow, as recorded: its status, its steps' statuses and its reply */
async function ourRunRecord(api: Api, workflowId: string): Promise<string> {
  const list = await api.call<{ data: { id: string }[] }>("GET", `/v1/workflows/${workflowId}/runs?limit=1`);
  if (!list.data[0]) return "no run recorded";
  const run = await api.call<{ data: { status: string; response: { status: number } | null; steps: { name: string; status: string; return_value: unknown }[] } }>(
    "GET",
    `/v1/runs/${list.data[0].id}`,
  );
  const r = run.data;
  return `${r.status}; ${r.steps.map((s) => `${s.name} ${s.status} -> ${JSON.stringify(s.return_value)}`).join(", ")}; reply ${r.response?.status ?? "none"}`;
}

/** the journal of one Restate invocation (admin SQL over sys_journal) */
async function restateJournal(r: Restate): Promise<string> {
  const res = await fetch(`${r.ingress}/Bench/three`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ n: INPUT }) });
  await res.text();
  const id = res.headers.get("x-restate-id");
  if (!id) return "no x-restate-id on the answer";
  const q = await fetch(`${r.admin}/query`, {
    method: "POST",
    headers: { ...JSON_HEADERS, accept: "application/json" },
    body: JSON.stringify({ query: `SELECT entry_type, name FROM sys_journal WHERE id = '${id}' ORDER BY index` }),
  });
  if (!q.ok) return `admin query answered ${q.status}`;
  const rows = ((await q.json()) as { rows: { entry_type: string; name?: string }[] }).rows;
  // "Command: Run" s1 then "Notification: Run" (its result, acknowledged) -> "Run s1 + result"
  const out: string[] = [];
  for (const e of rows) {
    if (e.entry_type.startsWith("Notification: ") && out.length) out[out.length - 1] += " + result";
    else out.push(`${e.entry_type.replace(/^Command: /, "")}${e.name ? ` ${e.name}` : ""}`);
  }
  return out.join(", ");
}

const fixed = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");

/** `restateFsync`: "on" (Restate's default) or "off" (--restate-fsync=off) */
export async function benchWorkflows(seconds: number, opts: { restateFsync?: string; suspended?: number; delaySeconds?: number } = {}): Promise<void> {
  if (!["on", "off", undefined].includes(opts.restateFsync)) throw new Error(`--restate-fsync must be on or off, got "${opts.restateFsync}"`);
  const fsync = opts.restateFsync !== "off";
  // the yardstick: bare node:http, 50 connections closed loop and sequential round trips
  const bare = await startBare();
  let bareRps: number;
  let bareP99: number;
  let bareSeq: number;
  try {
    const b = await load({ url: bare.url, connections: MAIN_CONNECTIONS, seconds, method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ n: INPUT }) });
    [bareRps, bareP99] = [b.rps, b.p99];
    const seq: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t0 = performance.now();
      await (await fetch(bare.url, { method: "POST", headers: JSON_HEADERS, body: "{}" })).text();
      seq.push(performance.now() - t0);
    }
    bareSeq = median(seq);
  } finally {
    await bare.stop();
  }

  let skipped = installRestate();
  let restate: Restate | undefined;
  if (!skipped) {
    try {
      restate = await startRestate(fsync);
    } catch (err) {
      skipped = `could not start: ${(err as Error).message}`;
    }
  }
  if (skipped) console.log(`\nRestate: SKIPPED (${skipped})`);

  const adminKey = "bench-admin-key-" + Date.now();
  const ioApi: SlowApi = await startSlowApi(API_DELAY_MS);
  const slowApi: SlowApi = await startSlowApi(SLOW_API_DELAY_MS);
  const service = await startService(adminKey, { TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${ioApi.port},127.0.0.1:${slowApi.port}` });
  // the I/O yardstick: the same 3 awaited calls in bare Node, measured in each round beside ours
  const bareIo = await startBare("bare-io-server.ts");
  const bareIoTarget: Target = { url: bareIo.url, body: JSON.stringify({ n: INPUT, url: ioApi.url }), expected: INPUT + 3 };
  const bareIoLoops: Closed[] = [];
  const ours = newTally();
  const theirs = newTally();
  let runRecord: string;
  let journal = "";
  let many: ManyResult | undefined;
  let manyFailed = "";
  try {
    const { system: our, api, threeId } = await createOurs(service, adminKey, ioApi.url);
    const their = restate ? restateSystem(restate, ioApi.url) : undefined;
    // what each system does for one run, read back from its own records
    await warmUp(our, seconds);
    await sequential(bareIoTarget, 10);
    runRecord = await ourRunRecord(api, threeId);
    if (their && restate) {
      try {
        await warmUp(their, seconds);
        journal = await restateJournal(restate);
      } catch (err) {
        theirs.failed = `warm-up failed: ${(err as Error).message}`;
      }
    }
    for (let i = 1; i <= ROUNDS; i++) {
      console.log(`  (round ${i} of ${ROUNDS}: Tributary${their && !theirs.failed ? ", Restate" : ""})`);
      await round(our, seconds, ours);
      bareIoLoops.push(await closedLoop(bareIoTarget, seconds, [bareIo.child.pid!]));
      if (their && !theirs.failed) {
        await sleep(1000);
        try {
          await round(their, seconds, theirs);
        } catch (err) {
          theirs.failed = `stopped in round ${i}: ${(err as Error).message}`;
        }
        await sleep(1000);
      }
    }
  } finally {
    await service.stop();
    await bareIo.stop();
    await restate?.stop();
    await ioApi.stop();
  }
  // 4b. what 1,000 runs awaiting an API cost, on a service of their own (the loads above leave
  // their warm contexts and grown heaps in the service they ran on)
  try {
    console.log(`  (1,000 runs awaiting a ${SLOW_API_DELAY_MS / 1000} s call, on a service of their own)`);
    const fresh = await startService(adminKey, { TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${slowApi.port}` });
    try {
      many = await manyAwaiting(new Api(fresh.url, adminKey), fresh.child.pid!, slowApi, fresh.url);
    } finally {
      await fresh.stop();
    }
  } catch (e) {
    manyFailed = (e as Error).message;
  } finally {
    await slowApi.stop();
  }
  // 5. many runs suspended at once, on a service of their own (after the rest: it takes minutes)
  const suspendedCount = opts.suspended ?? 100_000;
  let suspended: SuspendedResult | undefined;
  let suspendedFailed = "";
  if (suspendedCount > 0) {
    console.log(`  (${int(suspendedCount)} runs in $.flow.delay(${opts.delaySeconds ?? 90} s))`);
    suspended = await benchSuspended(suspendedCount, (opts.delaySeconds ?? 90) * 1000).catch((e: unknown) => {
      suspendedFailed = (e as Error).message;
      return undefined;
    });
  }
  if (theirs.failed) {
    skipped = theirs.failed;
    console.log(`\nRestate: SKIPPED (${skipped})`);
  }

  // ---- figures ----
  const rates = (t: Tally) => t.closed.map((c) => c.good / c.seconds);
  const rps = (t: Tally) => median(rates(t));
  const perRound = (t: Tally) => rates(t).map((r) => int(r)).join(" / ");
  const sum = (t: Tally, f: (c: Closed) => number) => t.closed.reduce((s, c) => s + f(c), 0);
  const answers = (t: Tally) => `${int(sum(t, (c) => c.errors))}, ${int(sum(t, (c) => c.non2xx))}, ${int(sum(t, (c) => c.badBody))}`;
  const cpuPerRun = (t: Tally) => median(t.closed.map((c) => c.cpuMsPerRun));
  const p99Closed = (t: Tally) => Math.max(...t.closed.map((c) => c.p99));
  const seqMedian = (t: Tally) => median(t.seq);
  const pacedP99 = (t: Tally) => pct(sorted(t.paced), 99);
  const perStep = (t: Tally) => (median(t.chain40) - median(t.chain1)) / (CHAIN - 1);

  const have = restate !== undefined && !skipped && theirs.closed.length === ROUNDS;
  const unknown = "unknown (Restate skipped)";
  const theirValue = (f: () => string) => (have ? f() : "SKIPPED");
  const ratio = (a: number, b: number) => a / b;

  const thr = ratio(rps(ours), rps(theirs));
  const lat = ratio(seqMedian(ours), seqMedian(theirs));
  const tail = ratio(pacedP99(ours), pacedP99(theirs));
  const ourStep = perStep(ours);

  const rows: Check[] = [
    { metric: `bare node:http POST (${MAIN_CONNECTIONS} conn)`, value: `${int(bareRps)} req/s, p99 ${bareP99} ms` },
    { metric: "bare node:http sequential round trip, median", value: ms(bareSeq) },
    { metric: "Restate", value: have ? restate!.versions : `SKIPPED (${(skipped ?? "").split(":")[0].slice(0, 80)}; why: above)` },
    { metric: "Tributary run record (newest run, read back)", value: runRecord },
    { metric: "Restate journal of one invocation (sys_journal)", value: theirValue(() => journal) },
    // 1. throughput
    { metric: `Tributary 3 steps, ${MAIN_CONNECTIONS} conn closed loop: completed runs/s`, value: `${int(rps(ours))} (rounds ${perRound(ours)})` },
    { metric: `Restate 3 x ctx.run, ${MAIN_CONNECTIONS} conn closed loop: completed runs/s`, value: theirValue(() => `${int(rps(theirs))} (rounds ${perRound(theirs)})`) },
    { metric: "Tributary errors, non-2xx, 2xx without the value", value: answers(ours), target: "0, 0, 0", pass: answers(ours) === "0, 0, 0" },
    { metric: "Restate errors, non-2xx, 2xx without the value", value: theirValue(() => answers(theirs)) },
    { metric: "closed-loop p99 (worst round): Tributary, Restate", value: `${p99Closed(ours)} ms, ${theirValue(() => `${p99Closed(theirs)} ms`)}` },
    { metric: "CPU per completed run: Tributary, Restate (server + service)", value: `${fixed(cpuPerRun(ours))} ms, ${theirValue(() => `${fixed(cpuPerRun(theirs))} ms`)}` },
    { metric: "Tributary : bare req/s", value: fixed(rps(ours) / bareRps) },
    { metric: "Tributary : Restate completed runs/s", value: have ? `${fixed(thr)}x` : unknown, target: ">= 5x", pass: have && thr >= 5 },
    // 2. sequential latency
    { metric: `sequential median (${ROUNDS} x ${SEQUENTIAL}): Tributary`, value: ms(seqMedian(ours)) },
    { metric: `sequential median (${ROUNDS} x ${SEQUENTIAL}): Restate`, value: theirValue(() => ms(seqMedian(theirs))) },
    { metric: "sequential failures (non-2xx or wrong value): Tributary, Restate", value: `${ours.seqBad}, ${theirValue(() => String(theirs.seqBad))}` },
    { metric: "sequential median: Tributary : Restate", value: have ? `${fixed(lat)}x` : unknown, target: "<= 1.0x", pass: have && lat <= 1.0 },
    // 3. paced p99
    { metric: `paced ${PACED_RATE} req/s p99 (${ROUNDS} x ${seconds} s): Tributary`, value: `${ms(pacedP99(ours))} (${int(ours.pacedSent)} sent, ${ours.pacedBad} failed)` },
    { metric: `paced ${PACED_RATE} req/s p99 (${ROUNDS} x ${seconds} s): Restate`, value: theirValue(() => `${ms(pacedP99(theirs))} (${int(theirs.pacedSent)} sent, ${theirs.pacedBad} failed)`) },
    { metric: `paced p99: Tributary : Restate`, value: have ? `${fixed(tail)}x` : unknown, target: "<= 1.0x", pass: have && tail <= 1.0 },
    // I/O-bound steps
    ...ioRows({
      connections: MAIN_CONNECTIONS,
      ours: ours.io.map((c) => c.good / c.seconds),
      theirs: have ? theirs.io.map((c) => c.good / c.seconds) : undefined,
      bare: bareIoLoops.map((c) => c.good / c.seconds),
      ourFailures: `${int(ours.io.reduce((n, c) => n + c.errors, 0))}, ${int(ours.io.reduce((n, c) => n + c.non2xx, 0))}, ${int(ours.io.reduce((n, c) => n + c.badBody, 0))}`,
      many,
      manyFailed,
    }),
    // 4. step overhead
    { metric: `Tributary median, 1 step / ${CHAIN} steps`, value: `${ms(median(ours.chain1))} / ${ms(median(ours.chain40))}` },
    { metric: `Restate median, 1 / ${CHAIN} x ctx.run`, value: theirValue(() => `${ms(median(theirs.chain1))} / ${ms(median(theirs.chain40))}`) },
    { metric: "chain failures: Tributary, Restate", value: `${ours.chainBad}, ${theirValue(() => String(theirs.chainBad))}` },
    { metric: "Restate per step: (median40 - median1) / 39", value: theirValue(() => `${fixed(perStep(theirs), 3)} ms`) },
    { metric: "Tributary per step: (median40 - median1) / 39", value: `${fixed(ourStep, 3)} ms`, target: "<= 1 ms", pass: ourStep <= 1 },
    // 5. suspended runs
    {
      metric: `${int(suspendedCount)} runs suspended in $.flow.delay on one node`,
      value: suspended ? describeSuspended(suspended) : suspendedCount === 0 ? "SKIPPED (--suspended=0)" : `FAILED (${suspendedFailed})`,
      target: "RSS < 1 GiB, p99 < 250 ms late",
      // skipped on purpose: neither passed nor missed
      ...(suspendedCount === 0 ? {} : { pass: suspended !== undefined && suspendedCount >= 100_000 && suspended.resumed === suspended.count && suspended.rssBytes < 1024 ** 3 && suspended.late.p99 < 250 }),
    },
  ];
  table(
    `Workflows beside Restate: 3 steps per run, ${ROUNDS} ${have ? "interleaved rounds (Tributary, Restate)" : "rounds (Tributary; Restate SKIPPED)"}, ${seconds} s per load, autocannon ${MAIN_CONNECTIONS} conn`,
    rows,
  );
  const restateDurability = fsync
    ? ["its log's RocksDB WAL is fsynced (Restate's default), which", "ours doesn't do (`--restate-fsync=off` measures Restate without that fsync)."]
    : ["here its log's WAL isn't fsynced (--restate-fsync=off): like", "ours, a commit survives a crash of the process, not necessarily of the machine."];
  console.log(
    [
      "",
      `Counting: every closed-loop answer is checked (autocannon onResponse): a run counts only when it is`,
      `a 2xx whose JSON body has value ${THREE_VALUE}; the sequential and chain requests are checked the same way;`,
      `the paced load counts answers by status. Runs/s is the median of the ${ROUNDS} rounds; latencies pool the`,
      `${ROUNDS} rounds' samples. The load generator shares the machine's cores with the systems measured.`,
      "",
      "The same work: Tributary commits each step (its row and the run's state) before the next one starts,",
      "in SQLite WAL with synchronous=NORMAL (a commit survives a crash of the process, not necessarily of",
      "the machine), and a crash resumes at the first step that had not committed. Restate journals each",
      "ctx.run result before the handler goes on, so a crash resumes after the last journalled step;",
      restateDurability[0] + " " + restateDurability[1],
    ].join("\n"),
  );
}
