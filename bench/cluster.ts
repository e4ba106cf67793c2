import pg from "pg";
import { randomBytes } from "node:crypto";
import { load, type LoadResult } from "./load.ts";
import { startBare, startService, type Running } from "./processes.ts";
import { Api, int, ms, pct, sleep, table, waitForCount, type Check } from "./util.ts";
import { createSink, MAIN_CONNECTIONS, paddedBody } from "./ingest.ts";
import { partitionOf } from "../src/core/cluster/partition.ts";

// `npm run bench -- --only=cluster --nodes=N` (several nodes, extensions §4): durable ingest
// spread over N nodes on one PostgreSQL with the Redis bus, against one PostgreSQL node with the
// in-process bus and with the Redis bus (the bus's own cost); SSE latency from the emitter's
// owner to a stream on another node; failover: kill -9 of a node → its timers firing elsewhere.
// All nodes share this machine's cores, so the figures are per-node efficiency, not scaling.

const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

const TICKER = `export default {
  name: "ticker",
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } },
  run() { this.$emit({ at: Date.now() }) },
}`;

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tributary_bench_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = "/" + name;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

interface Nodes {
  nodes: Running[];
  api: Api;
  db: string;
  stop(): Promise<void>;
}

async function startNodes(n: number, bus: "memory" | "redis", env: Record<string, string> = {}): Promise<Nodes> {
  const db = await freshDatabase();
  const adminKey = "bench-admin-" + randomBytes(6).toString("hex");
  const common = {
    TRIBUTARY_STORE: "postgres",
    DATABASE_URL: db.url,
    TRIBUTARY_EVENT_RETENTION: "1000000",
    TRIBUTARY_SECRET_KEY: randomBytes(32).toString("hex"),
    ...(bus === "redis" ? { TRIBUTARY_BUS: "redis", REDIS_URL } : {}),
    ...env,
  };
  const nodes = await Promise.all(Array.from({ length: n }, (_, i) => startService(adminKey, { ...common, TRIBUTARY_NODE_ID: `bench-node${i + 1}` })));
  return {
    nodes,
    api: new Api(nodes[0].url, adminKey),
    db: db.url,
    async stop() {
      await Promise.all(nodes.map((x) => x.stop()));
      await db.drop();
    },
  };
}

/** durable events/s: `sinks` sources, each loaded through one node, all at once */
async function ingest(c: Nodes, sinks: number, seconds: number, body: string): Promise<{ eps: number; loads: LoadResult[] }> {
  const made = await Promise.all(Array.from({ length: sinks }, (_, i) => createSink(c.api, `cluster-sink-${i}`)));
  const headers = { "content-type": "application/json" };
  for (const s of made) {
    for (let i = 0; i < 10; i++) await (await fetch(s.endpoint, { method: "POST", headers, body })).text();
  }
  const count = async () => (await Promise.all(made.map((s) => c.api.eventCount(s.id)))).reduce((a, b) => a + b, 0);
  const before = (await waitForCount(count, { expected: sinks * 10, quietMs: 5000 })).count;
  const connections = Math.max(1, Math.floor(MAIN_CONNECTIONS / sinks));
  const loads = await Promise.all(
    made.map((s, i) => {
      const node = c.nodes[i % c.nodes.length];
      return load({ url: node.url + new URL(s.endpoint).pathname, connections, seconds, method: "POST", headers, body });
    }),
  );
  const ok = loads.reduce((a, r) => a + r.ok, 0);
  const done = await waitForCount(count, { expected: before + ok, quietMs: 5000, timeoutMs: 300_000 });
  return { eps: (done.count - before) / seconds, loads };
}

/** a live stream's latencies (ms from the request's send to the event's arrival), read from `url` */
function watch(url: string, key: string): { latencies: number[]; arrivals: Map<number, number>; ready: Promise<void>; stop: () => Promise<void> } {
  const ac = new AbortController();
  const latencies: number[] = [];
  /** sentAt → when it arrived here (performance.now(), sub-millisecond) */
  const arrivals = new Map<number, number>();
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  const reading = (async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: ac.signal });
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of res.body!) {
        buf += decoder.decode(chunk as Uint8Array, { stream: true });
        let at: number;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          if (block.startsWith(":sse-handshake")) markReady();
          const data = block.split("\n").find((l) => l.startsWith("data: "));
          const sent = data ? JSON.parse(data.slice(6))?.event?.sentAt : undefined;
          if (typeof sent === "number") {
            latencies.push(Date.now() - sent);
            arrivals.set(sent, performance.now());
          }
        }
      }
    } catch {
      // aborted
    }
  })().catch(() => markReady());
  return {
    latencies,
    arrivals,
    ready,
    async stop() {
      ac.abort();
      await reading;
    },
  };
}

/**
 * Events sent to their source's owner, ~`rate`/s: the latency from the request to a stream on the
 * owner itself and to one on another node (the difference is the Redis hop).
 */
async function sseAcross(c: Nodes, n: number, rate: number): Promise<{ local: number[]; remote: number[]; hop: number[] }> {
  const sink = await createSink(c.api, "cluster-sse");
  const path = new URL(sink.endpoint).pathname;
  const db = new pg.Client({ connectionString: c.db });
  await db.connect();
  let ownerPort: string | undefined;
  for (let i = 0; i < 100 && !ownerPort; i++) {
    const r = await db.query("select n.address from partition_leases l join cluster_nodes n on n.node_id = l.owner where l.id = $1", [partitionOf(sink.id)]);
    ownerPort = r.rows[0]?.address ? new URL(r.rows[0].address).port : undefined;
    if (!ownerPort) await sleep(100);
  }
  await db.end();
  const owner = c.nodes.find((x) => new URL(x.url).port === ownerPort) ?? c.nodes[0];
  const other = c.nodes.find((x) => x !== owner) ?? owner;
  const local = watch(`${owner.url}/sources/${sink.id}/sse`, c.api.key);
  const remote = watch(`${other.url}/sources/${sink.id}/sse`, c.api.key);
  await Promise.all([local.ready, remote.ready]);
  // a warm-up: the first run compiles the component
  for (let i = 0; i < 20; i++) await (await fetch(owner.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).text();
  for (let i = 0; i < n; i++) {
    await (await fetch(owner.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ sentAt: Date.now() }) })).text();
    await sleep(1000 / rate);
  }
  const deadline = Date.now() + 10_000;
  while ((local.latencies.length < n || remote.latencies.length < n) && Date.now() < deadline) await sleep(50);
  await Promise.all([local.stop(), remote.stop()]);
  const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
  // the hop itself: the same event on the other node's stream, after the owner's own stream had it
  const hop = [...remote.arrivals].filter(([k]) => local.arrivals.has(k)).map(([k, at]) => at - local.arrivals.get(k)!);
  return { local: sorted(local.latencies), remote: sorted(remote.latencies), hop: sorted(hop) };
}

/** kill -9 of a node owning timers → the first tick of each of them elsewhere, ms after the kill */
async function failover(c: Nodes, sources: number): Promise<{ ms: number; moved: number } | undefined> {
  const made: string[] = [];
  for (let i = 0; i < sources; i++) made.push((await c.api.call("POST", "/v1/sources/", { component_code: TICKER, name: `ticker-${i}` })).data.id);
  await sleep(3000);
  const db = new pg.Client({ connectionString: c.db });
  await db.connect();
  try {
    const owners = new Map<string, string>();
    for (const id of made) {
      const r = await db.query("select n.address from partition_leases l join cluster_nodes n on n.node_id = l.owner where l.id = $1", [partitionOf(id)]);
      owners.set(id, r.rows[0]?.address ?? "");
    }
    const victim = c.nodes.slice(1).find((n) => [...owners.values()].some((a) => a && new URL(a).port === new URL(n.url).port));
    if (!victim) return undefined;
    const moved = made.filter((id) => new URL(owners.get(id)!).port === new URL(victim.url).port);
    const killedAt = Date.now();
    victim.child.kill("SIGKILL");
    c.nodes.splice(c.nodes.indexOf(victim), 1);
    const firstAfter = new Map<string, number>();
    while (firstAfter.size < moved.length && Date.now() - killedAt < 60_000) {
      for (const id of moved) {
        if (firstAfter.has(id)) continue;
        const r = await db.query("select max(indexed_at_ms) as at from events where emitter_id = $1 and event_name = ''", [id]);
        const at = Number(r.rows[0]?.at ?? 0);
        if (at > killedAt) firstAfter.set(id, at - killedAt);
      }
      await sleep(100);
    }
    return { ms: Math.max(...firstAfter.values()), moved: moved.length };
  } finally {
    await db.end();
  }
}

async function reachable(): Promise<string | undefined> {
  try {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    await c.end();
  } catch (e) {
    return `PostgreSQL at ${DATABASE_URL}: ${(e as Error).message}`;
  }
  const { Redis } = await import("ioredis");
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    await r.ping();
  } catch (e) {
    return `Redis at ${REDIS_URL}: ${(e as Error).message}`;
  } finally {
    r.disconnect();
  }
  return undefined;
}

export async function benchCluster(seconds: number, n: number): Promise<void> {
  const problem = await reachable();
  if (problem) {
    console.log(`\n## several nodes: SKIPPED (${problem})`);
    return;
  }
  const body = paddedBody({ kind: "cluster" }, 200);
  const bare = await startBare();
  let bareRps: number;
  try {
    bareRps = (await load({ url: bare.url, connections: MAIN_CONNECTIONS, seconds, method: "POST", headers: { "content-type": "application/json" }, body })).rps;
  } finally {
    await bare.stop();
  }
  const sinks = Math.max(2, n * 2);
  const run = async (nodes: number, bus: "memory" | "redis") => {
    const c = await startNodes(nodes, bus);
    try {
      return (await ingest(c, sinks, seconds, body)).eps;
    } finally {
      await c.stop();
    }
  };
  // two rounds, alternating, the best of each: one run of a few seconds on a shared machine swings by 30%
  let onePgMemory = 0;
  let onePgRedis = 0;
  for (let round = 0; round < 2; round++) {
    onePgMemory = Math.max(onePgMemory, await run(1, "memory"));
    onePgRedis = Math.max(onePgRedis, await run(1, "redis"));
  }
  const many = await run(n, "redis");

  const c = await startNodes(n, "redis");
  let sse: { local: number[]; remote: number[]; hop: number[] };
  let fail: Awaited<ReturnType<typeof failover>>;
  try {
    sse = await sseAcross(c, 300, 100);
    fail = n > 1 ? await failover(c, 8) : undefined;
  } finally {
    await c.stop();
  }
  const rows: Check[] = [
    { metric: "bare node:http POST 200 B", value: `${int(bareRps)} req/s` },
    { metric: `1 node, PostgreSQL, in-process bus (${sinks} sources)`, value: `${int(onePgMemory)} events/s (${(onePgMemory / bareRps).toFixed(2)} of bare)` },
    {
      metric: "1 node, PostgreSQL, Redis bus",
      value: `${int(onePgRedis)} events/s`,
      target: ">= 90% of the in-process bus",
      pass: onePgRedis >= 0.9 * onePgMemory,
    },
    { metric: "  Redis bus : in-process bus", value: `${((onePgRedis / onePgMemory) * 100).toFixed(0)}%` },
    { metric: `${n} nodes, total`, value: `${int(many)} events/s` },
    { metric: `${n} nodes, per node`, value: `${int(many / n)} events/s` },
    { metric: "  per-node efficiency (vs 1 node, same cores)", value: `${((many / n / onePgMemory) * 100).toFixed(0)}%` },
    { metric: `request → SSE on the owner p50 / p99 (${sse.local.length} of 300)`, value: `${ms(pct(sse.local, 50))} / ${ms(pct(sse.local, 99))}` },
    { metric: `request → SSE on another node p50 (${sse.remote.length} of 300)`, value: ms(pct(sse.remote, 50)) },
    { metric: "request → SSE on another node p99", value: ms(pct(sse.remote, 99)) },
    { metric: "  the hop (owner's stream → other node's stream) p50", value: ms(pct(sse.hop, 50)) },
    { metric: "  the hop p99", value: ms(pct(sse.hop, 99)), target: "< 50 ms", pass: pct(sse.hop, 99) < 50 },
    fail
      ? { metric: `failover: kill -9 → ${fail.moved} timers ticking elsewhere`, value: ms(fail.ms), target: "< 15 s", pass: fail.ms < 15_000 }
      : { metric: "failover", value: "n/a (one node, or no timer on another node)" },
  ];
  table(`several nodes (${n} on this machine, PostgreSQL + Redis; ${seconds} s loads)`, rows);
  console.log(
    "\n  All nodes share this machine's 2 cores with PostgreSQL, Redis and the load generator: compare per-node\n" +
      "  efficiency, not totals. On N machines the first limit is PostgreSQL's commit rate (every node's group\n" +
      "  commits land on one server), then Redis's publish rate (one message per event while anyone streams).",
  );
}
