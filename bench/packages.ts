import Sqlite from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startRegistry, type FixturePackage, type LocalRegistry } from "../test/fixtures/npm-registry.ts";
import { startBare, startService, type Running } from "./processes.ts";
import { Api, int, ms, pct, processTree, sleep, table, type Check } from "./util.ts";

// Components that import npm packages (the `packages` bench). Everything comes from a local npm
// registry (test/fixtures/npm-registry.ts) serving generated fixture packages, so it runs offline;
// every service started here gets TRIBUTARY_NPM_REGISTRY and TRIBUTARY_FETCH_ALLOW pointing at it.
//
// 1. Save time (service A): POST /v1/components timed by this process, request to answer.
//    - first save after start: a small package, uncached; it also pays for esbuild's start and the
//      analyzer's first run, so it is shown apart;
//    - uncached: UNCACHED components, each importing a different ~500 KB package never seen
//      before (metadata and tarball fetched, checked, unpacked, laid out, bundled, analysed);
//    - cached: CACHED components importing those same packages again (round robin), each with
//      different code, so each is a new component: nothing may be fetched (checked on the
//      registry's request log); target median and max < 200 ms;
//    - for scale: cached saves of the small package, and saves of code importing nothing.
// 2. Invocation overhead (service A): one component whose bundle is ~500 KB (it imports the
//    big package and calls it) and a plain one; both are HTTP sources with customResponse that
//    emit one small event and then respond, so a request's round trip is the whole invocation:
//    ingress, the run in the warm isolate, the event's commit, the reply. CONNECTIONS sources of
//    each, one keep-alive connection per source in a closed loop (a request, its answer, the next
//    one), --seconds per component, split in two halves run plain, bundled, plain, bundled so that
//    drift on a noisy machine falls on both. Each source is warmed first (cold starts are not
//    counted here). Target: bundled p50 latency, and plain runs/s over bundled runs/s, <= 1.2.
//    The same closed loop against the bare node:http server gives this machine's yardstick.
// 3. Warm-isolate memory (services B and C, one per component, TRIBUTARY_RUNNERS=2): WARMUP +
//    MEMORY_SOURCES sources of the component; the WARMUP sources are invoked first (each runner
//    then holds the code and its V8 code cache, one-time costs), then the runner processes' RSS
//    (the service's children whose command line is the runner's entry; VmRSS from /proc) is read;
//    then each of the MEMORY_SOURCES sources is invoked once (timed: that is its cold start), and
//    the RSS read again after a second's rest. (after - before) / MEMORY_SOURCES is the cost of
//    one warm source. A second pass over the same sources checks they stayed warm. Target: a
//    bundled source costs < 3 MiB more than a plain one. The service process's own RSS is read at
//    the same points: what the host keeps per source it has run.

const UNCACHED = 5;
const CACHED = 20;
const SMALL_SAVES = 5;
const CONNECTIONS = 8;
const MEMORY_SOURCES = 100;
const WARMUP = 10;
// the generator overshoots a little and esbuild's wrappers add ~10%: the package's part of the
// bundle comes out near 500 KB (the stored bundle also holds the Node globals the bundler injects)
const BIG_BYTES = 440 * 1024;

// ---- the fixture packages: deterministic, realistic-looking CommonJS ----

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "account address amount archive batch buffer cache channel client column config cursor delta digest domain entry event " +
  "field filter format header index item key label layer limit link list locale message metric node offset option order " +
  "owner page parser patch path payload policy prefix queue range record region report request resource result route rule " +
  "schema scope section segment session signal source state status stream suffix table tag target task tenant token topic " +
  "trace value version window invoice customer product shipment warehouse carrier currency discount ledger balance refund"
).split(" ");
const VERBS = "normalize validate parse format resolve merge compute collect render encode decode select apply build reduce".split(" ");
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

/** One module of a fixture package: functions, classes, message tables and constants, ~`bytes` long. */
function genModule(r: () => number, tag: string, bytes: number, prev: string | null): { code: string; exports: string[] } {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const n = (max: number) => 1 + Math.floor(r() * max);
  const sentence = (words: number) => cap(Array.from({ length: words }, () => pick(WORDS)).join(" "));
  let counter = 0;
  const ident = (prefix = "") => `${prefix}${prefix ? cap(pick(WORDS)) : pick(WORDS)}${cap(pick(WORDS))}${tag}${counter++}`;
  const exports: string[] = [];
  const tables: string[] = [];
  const parts: string[] = ['"use strict";'];
  if (prev) parts.push(`const prev = require("./${prev}");`);
  const prevCalls: string[] = [];
  let size = parts.join("\n").length;
  const add = (s: string, exported?: string) => {
    parts.push(s);
    size += s.length + 1;
    if (exported) exports.push(exported);
  };
  while (size < bytes) {
    const kind = r();
    if (kind < 0.18 || tables.length === 0) {
      const name = `MESSAGES_${ident().toUpperCase()}`;
      const entries = Array.from({ length: n(14) + 4 }, () => `  ${pick(WORDS)}_${pick(WORDS)}_${n(999)}: ${JSON.stringify(sentence(n(9) + 3))}`);
      add(`const ${name} = {\n${entries.join(",\n")}\n};`, name);
      tables.push(name);
    } else if (kind < 0.26) {
      const name = `WEIGHTS_${ident().toUpperCase()}`;
      const values = Array.from({ length: n(24) + 8 }, () => (r() * 1000).toFixed(n(4)));
      add(`const ${name} = [${values.join(", ")}];`, name);
    } else if (kind < 0.52) {
      const fn = ident(pick(VERBS));
      const table = pick(tables);
      const limit = n(64);
      add(
        `function ${fn}(input, options) {
  const opts = Object.assign({ strict: false, limit: ${limit}, separator: ${JSON.stringify(pick(["-", ".", "_", ":"]))} }, options);
  if (input == null) {
    if (opts.strict) {
      throw new TypeError(${JSON.stringify(`${fn}: input is required`)});
    }
    return null;
  }
  const parts = String(input).split(/[\\s,;]+/).filter(Boolean);
  const out = [];
  for (let i = 0; i < parts.length && i < opts.limit; i++) {
    const part = parts[i].trim().toLowerCase();
    if (part.length > ${n(30) + 8}) {
      out.push(part.slice(0, ${n(8) + 8}));
    } else if (Object.prototype.hasOwnProperty.call(${table}, part)) {
      out.push(${table}[part]);
    } else {
      out.push(part);
    }
  }
  return { value: out.join(opts.separator), count: out.length, kind: ${JSON.stringify(pick(WORDS))} };
}`,
        fn,
      );
      if (prev && prevCalls.length < 3) prevCalls.push(fn);
    } else if (kind < 0.7) {
      const fn = ident(pick(VERBS));
      const fields = Array.from({ length: n(6) + 2 }, () => pick(WORDS));
      const checks = fields
        .map(
          (f) => `  if (record.${f} === undefined || record.${f} === null) {
    errors.push({ field: ${JSON.stringify(f)}, message: ${JSON.stringify(`${sentence(n(4) + 2)} is required`)} });
  } else if (typeof record.${f} !== ${JSON.stringify(pick(["string", "number", "object"]))}) {
    errors.push({ field: ${JSON.stringify(f)}, message: ${JSON.stringify(sentence(n(5) + 3))} });
  }`,
        )
        .join("\n");
      add(
        `function ${fn}(record) {
  const errors = [];
  if (typeof record !== "object" || record === null) {
    return [{ field: "", message: "expected an object" }];
  }
${checks}
  return errors;
}`,
        fn,
      );
    } else if (kind < 0.85) {
      const cls = cap(ident());
      const field = pick(WORDS);
      const other = pick(WORDS);
      add(
        `class ${cls} {
  constructor(${field}, ${other}Count = ${n(10)}) {
    this.${field} = ${field};
    this.${other}Count = ${other}Count;
    this.created = Date.now();
    this.entries = new Map();
  }
  get size() {
    return this.entries.size;
  }
  add(key, value) {
    if (this.entries.size >= ${n(500) + 50}) {
      const first = this.entries.keys().next().value;
      this.entries.delete(first);
    }
    this.entries.set(String(key), value);
    return this;
  }
  ${pick(VERBS)}(predicate) {
    const out = [];
    for (const [key, value] of this.entries) {
      if (!predicate || predicate(value, key)) out.push({ key, value, ${other}: this.${other}Count });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  toJSON() {
    return { ${field}: this.${field}, ${other}Count: this.${other}Count, size: this.size, kind: ${JSON.stringify(cls)} };
  }
}`,
        cls,
      );
    } else {
      const fn = ident(pick(VERBS));
      const cases = Array.from(
        { length: n(8) + 3 },
        (_, i) => `    case ${JSON.stringify(`${pick(WORDS)}.${pick(WORDS)}.${i}`)}:
      return { ok: ${r() < 0.8}, code: ${n(599)}, reason: ${JSON.stringify(sentence(n(6) + 2))} };`,
      ).join("\n");
      add(
        `function ${fn}(type, weights) {
  const total = (weights || []).reduce((s, w) => s + w, 0);
  switch (String(type)) {
${cases}
    default:
      return { ok: false, code: ${n(99) + 400}, reason: "unknown type " + type, total };
  }
}`,
        fn,
      );
    }
  }
  if (prev && prevCalls.length > 0) {
    const fn = `chained${tag}`;
    add(
      `function ${fn}(input) {
  const prevKeys = Object.keys(prev);
  return { own: ${prevCalls[0]}(input), prev: prevKeys.length };
}`,
      fn,
    );
  }
  add(`module.exports = { ${exports.join(", ")} };`);
  return { code: parts.join("\n") + "\n", exports };
}

/** A ~`bytes` CommonJS package: index.js requiring MODULES files that each require the one before. */
export function bigPackage(name: string, seed: number, bytes: number): FixturePackage {
  const MODULES = 20;
  const r = mulberry32(seed);
  const files: Record<string, string> = {};
  const per = Math.floor(bytes / MODULES);
  for (let i = 0; i < MODULES; i++) {
    const file = `lib/part-${String(i).padStart(2, "0")}.js`;
    const prev = i === 0 ? null : `part-${String(i - 1).padStart(2, "0")}.js`;
    files[file] = genModule(r, `P${i}x`, per, prev).code;
  }
  const requires = Object.keys(files).map((f, i) => `const m${i} = require("./${f}");`);
  files["index.js"] = `"use strict";
${requires.join("\n")}
const all = Object.assign({}, ${Object.keys(files)
    .map((_, i) => `m${i}`)
    .join(", ")});
const VERSION = "1.0.0";
function summarize(text) {
  const s = String(text);
  let hash = 0;
  for (let i = 0; i < s.length; i++) hash = (Math.imul(hash, 31) + s.charCodeAt(i)) | 0;
  return { length: s.length, hash, exports: Object.keys(all).length, version: VERSION };
}
module.exports = Object.assign(all, { summarize, version: VERSION });
`;
  return { name, version: "1.0.0", files };
}

const SMALL: FixturePackage = {
  name: "tiny-pad",
  version: "1.0.0",
  files: { "index.js": `module.exports = function pad(s, n) { s = String(s); while (s.length < n) s = " " + s; return s; };` },
};

// ---- components ----

const httpProp = `http: { type: "$.interface.http", customResponse: true }`;

const PLAIN = `export default {
  name: "plain",
  props: { ${httpProp} },
  run(event) {
    const s = String(event.bodyRaw || "");
    let hash = 0;
    for (let i = 0; i < s.length; i++) hash = (Math.imul(hash, 31) + s.charCodeAt(i)) | 0;
    this.$emit({ kind: "plain", length: s.length, hash });
    this.http.respond({ status: 200, body: { ok: true } });
  },
}`;

const bundledCode = (pkg: string) => `import lib from "${pkg}";
export default {
  name: "bundled",
  props: { ${httpProp} },
  run(event) {
    const r = lib.summarize(event.bodyRaw || "");
    this.$emit({ kind: "bundled", length: r.length, hash: r.hash });
    this.http.respond({ status: 200, body: { ok: true } });
  },
}`;

/** Distinct code importing `pkg`: a new component each time. */
const variant = (pkg: string, i: number) => `import lib from "${pkg}";
export default {
  name: "variant-${i}",
  props: { ${httpProp} },
  run(event) {
    this.$emit({ variant: ${i}, r: lib.summarize(event.bodyRaw || "variant ${i}") });
    this.http.respond({ status: 200, body: { variant: ${i} } });
  },
}`;

const smallVariant = (i: number) => `import pad from "tiny-pad";
export default { name: "small-${i}", run() { this.$emit({ padded: pad("${i}", ${i + 4}) }); } }`;

const plainVariant = (i: number) => `export default { name: "nothing-${i}", run() { this.$emit({ i: ${i} }); } }`;

// ---- helpers ----

interface Source {
  id: string;
  endpoint: string;
}

async function saveTimed(api: Api, code: string): Promise<{ id: string; ms: number }> {
  const t0 = performance.now();
  const res = await api.call<{ data: { id: string } }>("POST", "/v1/components", { component_code: code });
  return { id: res.data.id, ms: performance.now() - t0 };
}

async function createSources(api: Api, componentId: string, count: number, name: string): Promise<Source[]> {
  const out: Source[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) =>
        api.call<{ data: { id: string; configured_props: { http: { endpoint_url: string } } } }>("POST", "/v1/sources/", {
          component_id: componentId,
          name: `${name} ${i + j}`,
        }),
      ),
    );
    for (const b of batch) out.push({ id: b.data.id, endpoint: b.data.configured_props.http.endpoint_url });
  }
  return out;
}

function post(url: URL, agent: Agent, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: "POST", agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/** One POST, timed; throws unless it answers 200. */
async function invokeOnce(endpoint: string, agent: Agent, body = '{"probe":true}'): Promise<number> {
  const t0 = performance.now();
  const status = await post(new URL(endpoint), agent, body);
  if (status !== 200) throw new Error(`POST ${endpoint} answered ${status}`);
  return performance.now() - t0;
}

interface LoopResult {
  ok: number;
  errors: number;
  non2xx: number;
  durationS: number;
  /** round trips of the 2xx answers, ms */
  latencies: number[];
}

/** One connection per url, each in a closed loop (POST, answer, next POST) for `seconds`. */
async function closedLoop(urls: string[], seconds: number): Promise<LoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: urls.length });
  const out: LoopResult = { ok: 0, errors: 0, non2xx: 0, durationS: 0, latencies: [] };
  const body = JSON.stringify({ kind: "bench", note: "a small event body of some tens of bytes" });
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    urls.map(async (raw) => {
      const url = new URL(raw);
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const status = await post(url, agent, body);
          if (status >= 200 && status < 300) {
            out.ok++;
            out.latencies.push(performance.now() - t0);
          } else out.non2xx++;
        } catch {
          out.errors++;
        }
      }
    }),
  );
  out.durationS = (performance.now() - start) / 1000;
  agent.destroy();
  return out;
}

function merge(a: LoopResult, b: LoopResult): LoopResult {
  return {
    ok: a.ok + b.ok,
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
    durationS: a.durationS + b.durationS,
    latencies: [...a.latencies, ...b.latencies],
  };
}

const rate = (r: LoopResult) => r.ok / r.durationS;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => pct(sorted(xs), 50);
const max = (xs: number[]) => Math.max(...xs);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

function vmRss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The service's runner processes (its descendants running the runner's entry) and their summed RSS. */
function runnersRss(servicePid: number): { bytes: number; pids: number[] } {
  const pids = processTree(servicePid).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("runner-main");
    } catch {
      return false;
    }
  });
  return { bytes: pids.reduce((s, p) => s + vmRss(p), 0), pids };
}

/** The stored bundle's size in bytes (null: the component was not bundled), read from the service's SQLite file. */
function bundleBytes(dataDir: string, componentId: string): number | null {
  const db = new Sqlite(join(dataDir, "tributary.db"), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT length(CAST(bundle AS BLOB)) AS n FROM components WHERE id = ?").get(componentId) as { n: number | null } | undefined;
    return row?.n ?? null;
  } finally {
    db.close();
  }
}

/** SIGTERM, and SIGKILL if the service hasn't exited after 15 s */
async function stopHard(service: Running): Promise<void> {
  const timer = setTimeout(() => service.child.kill("SIGKILL"), 15_000);
  await service.stop().finally(() => clearTimeout(timer));
}

async function withService<T>(registry: LocalRegistry, adminKey: string, env: Record<string, string>, fn: (api: Api, service: Running, dataDir: string) => Promise<T>): Promise<T> {
  // our own data dir (startService's env wins over its default), to read the stored bundles
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-bench-pkg-"));
  try {
    const service = await startService(adminKey, {
      TRIBUTARY_DATA_DIR: dataDir,
      TRIBUTARY_NPM_REGISTRY: registry.url,
      TRIBUTARY_FETCH_ALLOW: registry.hostPort,
      ...env,
    });
    try {
      return await fn(new Api(service.url, adminKey), service, dataDir);
    } finally {
      await stopHard(service);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- the phases ----

interface Saves {
  first: number;
  uncached: number[];
  cached: number[];
  small: number[];
  nothing: number[];
  cachedFetches: { metadata: number; tarballs: number };
  uncachedTarballs: number;
  bundleBytes: number | null;
}

interface Invocation {
  plain: LoopResult;
  bundled: LoopResult;
  bundleBytes: number | null;
}

interface Memory {
  before: number;
  after: number;
  serviceBefore: number;
  serviceAfter: number;
  runners: number;
  runnersReplaced: boolean;
  cold: number[];
  warm: number[];
  bundleBytes: number | null;
}

async function measureSaves(api: Api, registry: LocalRegistry, bigNames: string[], dataDir: string): Promise<Saves> {
  const tarballs = () => registry.hits.filter((h) => h.startsWith("/tarballs/")).length;
  const metadata = () => registry.hits.filter((h) => !h.startsWith("/tarballs/")).length;
  const first = (await saveTimed(api, smallVariant(0))).ms;
  const uncached: number[] = [];
  const t0 = tarballs();
  let firstBig = "";
  for (let i = 0; i < UNCACHED; i++) {
    const s = await saveTimed(api, bundledCode(bigNames[i]));
    if (i === 0) firstBig = s.id;
    uncached.push(s.ms);
  }
  const uncachedTarballs = tarballs() - t0;
  const m1 = metadata();
  const t1 = tarballs();
  const cached: number[] = [];
  for (let i = 0; i < CACHED; i++) cached.push((await saveTimed(api, variant(bigNames[i % UNCACHED], i))).ms);
  const cachedFetches = { metadata: metadata() - m1, tarballs: tarballs() - t1 };
  const small: number[] = [];
  for (let i = 1; i <= SMALL_SAVES; i++) small.push((await saveTimed(api, smallVariant(i))).ms);
  const nothing: number[] = [];
  for (let i = 0; i < SMALL_SAVES; i++) nothing.push((await saveTimed(api, plainVariant(i))).ms);
  return { first, uncached, cached, small, nothing, cachedFetches, uncachedTarballs, bundleBytes: bundleBytes(dataDir, firstBig) };
}

async function measureInvocation(api: Api, bigName: string, seconds: number, dataDir: string): Promise<Invocation> {
  const plainId = (await saveTimed(api, PLAIN)).id;
  const bundledId = (await saveTimed(api, bundledCode(bigName))).id;
  const plain = await createSources(api, plainId, CONNECTIONS, "plain");
  const bundled = await createSources(api, bundledId, CONNECTIONS, "bundled");
  // warm every source (its isolate is made on its first run), then a short unmeasured load
  const agent = new Agent({ keepAlive: true });
  for (const s of [...plain, ...bundled]) for (let i = 0; i < 3; i++) await invokeOnce(s.endpoint, agent);
  agent.destroy();
  const urls = (xs: Source[]) => xs.map((s) => s.endpoint);
  await closedLoop(urls(plain), 1);
  await closedLoop(urls(bundled), 1);
  const half = seconds / 2;
  const p1 = await closedLoop(urls(plain), half);
  const b1 = await closedLoop(urls(bundled), half);
  const p2 = await closedLoop(urls(plain), half);
  const b2 = await closedLoop(urls(bundled), half);
  return { plain: merge(p1, p2), bundled: merge(b1, b2), bundleBytes: bundleBytes(dataDir, bundledId) };
}

async function measureMemory(api: Api, service: Running, code: string, dataDir: string): Promise<Memory> {
  const pid = service.child.pid!;
  const { id } = await saveTimed(api, code);
  const warmups = await createSources(api, id, WARMUP, "warm-up");
  const sources = await createSources(api, id, MEMORY_SOURCES, "measured");
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const s of warmups) await invokeOnce(s.endpoint, agent);
    await sleep(1000);
    const r0 = runnersRss(pid);
    const serviceBefore = vmRss(pid);
    const cold: number[] = [];
    for (const s of sources) cold.push(await invokeOnce(s.endpoint, agent));
    await sleep(1000);
    const r1 = runnersRss(pid);
    const serviceAfter = vmRss(pid);
    const warm: number[] = [];
    for (const s of sources) warm.push(await invokeOnce(s.endpoint, agent));
    return {
      before: r0.bytes,
      after: r1.bytes,
      serviceBefore,
      serviceAfter,
      runners: r1.pids.length,
      runnersReplaced: r0.pids.join(",") !== r1.pids.join(","),
      cold,
      warm,
      bundleBytes: bundleBytes(dataDir, id),
    };
  } finally {
    agent.destroy();
  }
}

export async function benchPackages(seconds: number): Promise<void> {
  const adminKey = "bench-admin-key-" + Date.now();
  const bigNames = Array.from({ length: UNCACHED }, (_, i) => `big-lib-${i + 1}`);
  // big-lib-1 is the one the invocation and memory phases use; the memory services start empty
  const packages = [SMALL, ...bigNames.map((name, i) => bigPackage(name, 1000 + i, BIG_BYTES))];
  const registry = await startRegistry(packages);
  const loadBefore = loadavg()[0];

  let baseline: LoopResult;
  let saves: Saves;
  let inv: Invocation;
  let memPlain: Memory;
  let memBundled: Memory;
  try {
    const bare = await startBare();
    try {
      await closedLoop(Array(CONNECTIONS).fill(bare.url), 1);
      baseline = await closedLoop(Array(CONNECTIONS).fill(bare.url), seconds);
    } finally {
      await bare.stop();
    }
    ({ saves, inv } = await withService(registry, adminKey, {}, async (api, _service, dataDir) => ({
      saves: await measureSaves(api, registry, bigNames, dataDir),
      inv: await measureInvocation(api, bigNames[0], seconds, dataDir),
    })));
    const memEnv = { TRIBUTARY_RUNNERS: "2" };
    memPlain = await withService(registry, adminKey, memEnv, (api, service, dataDir) => measureMemory(api, service, PLAIN, dataDir));
    memBundled = await withService(registry, adminKey, memEnv, (api, service, dataDir) => measureMemory(api, service, bundledCode(bigNames[0]), dataDir));
  } finally {
    await registry.close();
  }

  const loadAfter = loadavg()[0];
  const bigSize = packages.slice(1).reduce((s, p) => s + Object.values(p.files).reduce((n, f) => n + Buffer.byteLength(f), 0), 0) / UNCACHED;
  const saveRows: Check[] = [
    { metric: "machine load average (1 min), start / end", value: `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}` },
    { metric: "fixture package size (20 modules + index)", value: kb(bigSize) },
    { metric: "stored bundle of a component importing it", value: saves.bundleBytes === null ? "not bundled" : kb(saves.bundleBytes) },
    { metric: "first save after start (tiny-pad, uncached)", value: ms(saves.first) },
    { metric: `uncached save (${UNCACHED} packages): median`, value: ms(median(saves.uncached)) },
    { metric: "uncached save: max", value: ms(max(saves.uncached)) },
    { metric: "uncached saves: tarballs fetched", value: String(saves.uncachedTarballs), target: String(UNCACHED), pass: saves.uncachedTarballs === UNCACHED },
    { metric: `cached save (${CACHED} components): median`, value: ms(median(saves.cached)), target: "< 200 ms", pass: median(saves.cached) < 200 },
    { metric: "cached save: max", value: ms(max(saves.cached)), target: "< 200 ms", pass: max(saves.cached) < 200 },
    {
      metric: "cached saves: registry requests (metadata, tarballs)",
      value: `${saves.cachedFetches.metadata}, ${saves.cachedFetches.tarballs}`,
      target: "0, 0",
      pass: saves.cachedFetches.metadata === 0 && saves.cachedFetches.tarballs === 0,
    },
    { metric: `cached save, tiny package (${SMALL_SAVES}): median / max`, value: `${ms(median(saves.small))} / ${ms(max(saves.small))}` },
    { metric: `save importing nothing (${SMALL_SAVES}): median / max`, value: `${ms(median(saves.nothing))} / ${ms(max(saves.nothing))}` },
  ];
  table("Packages: saving a component that imports a ~500 KB package", saveRows);

  const p = inv.plain;
  const b = inv.bundled;
  const ps = sorted(p.latencies);
  const bs = sorted(b.latencies);
  const bl = sorted(baseline.latencies);
  const latencyRatio = pct(bs, 50) / pct(ps, 50);
  const rateRatio = rate(p) / rate(b);
  const invRows: Check[] = [
    { metric: `bare node:http POST (${CONNECTIONS} conn, closed loop)`, value: `${int(rate(baseline))} req/s` },
    { metric: "bare p50 / p99", value: `${ms(pct(bl, 50))} / ${ms(pct(bl, 99))}` },
    { metric: "bundled component's stored bundle", value: inv.bundleBytes === null ? "not bundled" : kb(inv.bundleBytes) },
    { metric: "plain: runs/s", value: int(rate(p)) },
    { metric: "plain: p50 / p99", value: `${ms(pct(ps, 50))} / ${ms(pct(ps, 99))}` },
    { metric: "bundled: runs/s", value: int(rate(b)) },
    { metric: "bundled: p50 / p99", value: `${ms(pct(bs, 50))} / ${ms(pct(bs, 99))}` },
    { metric: "ratio bundled : plain p50 latency", value: latencyRatio.toFixed(2), target: "<= 1.2", pass: latencyRatio <= 1.2 },
    { metric: "ratio plain : bundled runs/s", value: rateRatio.toFixed(2), target: "<= 1.2", pass: rateRatio <= 1.2 },
    { metric: "ratio bundled : plain p99 latency", value: (pct(bs, 99) / pct(ps, 99)).toFixed(2) },
    { metric: "ratio plain runs/s : bare req/s", value: (rate(p) / rate(baseline)).toFixed(2) },
    {
      metric: "errors + non-2xx (plain, bundled)",
      value: `${p.errors + p.non2xx}, ${b.errors + b.non2xx}`,
      target: "0, 0",
      pass: p.errors + p.non2xx + b.errors + b.non2xx === 0,
    },
  ];
  table(
    `Packages: warm invocations, customResponse HTTP sources that emit one event (${CONNECTIONS} sources and connections each, ${seconds} s each)`,
    invRows,
  );

  const per = (m: Memory) => (m.after - m.before) / MEMORY_SOURCES;
  const extra = per(memBundled) - per(memPlain);
  const memRow = (name: string, m: Memory): Check[] => [
    { metric: `${name}: runners' RSS before / after`, value: `${mb(m.before)} / ${mb(m.after)}` },
    { metric: `${name}: per warm source`, value: mb(per(m)) },
    { metric: `${name}: service process RSS before / after`, value: `${mb(m.serviceBefore)} / ${mb(m.serviceAfter)}` },
    { metric: `${name}: service process, per source run`, value: mb((m.serviceAfter - m.serviceBefore) / MEMORY_SOURCES) },
    { metric: `${name}: first (cold) invocation p50 / max`, value: `${ms(median(m.cold))} / ${ms(max(m.cold))}` },
    { metric: `${name}: second (warm) invocation p50 / max`, value: `${ms(median(m.warm))} / ${ms(max(m.warm))}` },
    {
      metric: `${name}: runner processes, with the analyzer's (replaced during)`,
      value: `${m.runners} (${m.runnersReplaced ? "yes: figure unreliable" : "no"})`,
      pass: m.runnersReplaced ? false : undefined,
    },
  ];
  const memRows: Check[] = [
    { metric: "bundled component's stored bundle", value: memBundled.bundleBytes === null ? "not bundled" : kb(memBundled.bundleBytes) },
    ...memRow("plain", memPlain),
    ...memRow("bundled", memBundled),
    { metric: "bundled - plain, per warm source", value: mb(extra), target: "< 3 MiB", pass: extra < 3 * 1024 * 1024 },
  ];
  table(`Packages: warm-isolate memory, ${MEMORY_SOURCES} sources invoked once (2 runners, a service run each)`, memRows);
}
