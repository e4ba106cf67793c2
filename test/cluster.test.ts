import { after, before, describe, test } from "node:test";
import { createServer, connect as netConnect, type AddressInfo, type Socket } from "node:net";
import assert from "node:assert/strict";
import { clusterSkip, startCluster, type Cluster, type Node } from "./cluster-nodes.ts";
import { connect } from "./sse-client.ts";
import { HTTP_COMPONENT, waitFor } from "./helpers.ts";
import { listShippedComponents } from "../src/runtime/registry-files.ts";

// Three real nodes on one PostgreSQL database with the Redis bus (docs/several-nodes.md): one writer per
// emitter through partition leases, work that survives kill -9 of a node, live streams and
// cache changes that cross nodes, and a bootstrap that happens once.

const COUNTER = `
export default {
  key: "cluster-counter",
  name: "Cluster counter",
  version: "0.1.0",
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } }, db: "$.service.db" },
  run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    this.$emit({ n, ts: event.timestamp });
  },
};
`;

const LISTENER = `
export default {
  key: "cluster-listener",
  name: "Cluster listener",
  version: "0.1.0",
  props: {},
  run(event) { this.$emit({ heard: event }); },
};
`;

async function create(c: Cluster, node: Node, code: string, extra: Record<string, unknown> = {}) {
  const r = await c.api(node, "POST", "/v1/sources", { component_code: code, ...extra });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as { id: string; configured_props: Record<string, any> };
}

const endpointOf = (s: { configured_props: Record<string, any> }) => new URL(s.configured_props.http.endpoint_url).pathname;

async function post(node: Node, path: string, body: unknown): Promise<number> {
  const res = await fetch(node.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

/** payloads of the emitter's default stream, straight from the store, oldest first */
async function stored(c: Cluster, emitterId: string): Promise<any[]> {
  const r = await c.db.query("select payload from events where emitter_id = $1 and event_name = '' order by ms, n", [emitterId]);
  return r.rows.map((row) => JSON.parse(row.payload));
}

const RESPONDER = `
export default {
  key: "cluster-responder",
  name: "Cluster responder",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true }, db: "$.service.db" },
  async run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    this.$emit({ n });
    await this.http.respond({ status: 201, headers: { "x-n": String(n) }, body: { n } });
  },
};
`;

describe("several nodes (PostgreSQL + Redis)", { skip: clusterSkip() }, () => {
  let c: Cluster;

  before(async () => {
    c = await startCluster(3, { TRIBUTARY_EVENT_RETENTION: "10000" });
  });
  after(async () => {
    await c?.close();
  });

  test("nodes started together on an empty database make one admin and one copy of each registry component", async () => {
    const users = await c.db.query("select count(*)::int as n from users");
    assert.equal(users.rows[0].n, 1);
    const registry = await c.db.query("select key, count(*)::int as n from components where registry = 1 group by key");
    assert.equal(registry.rows.length, listShippedComponents().length);
    for (const row of registry.rows) assert.equal(row.n, 1, `registry component ${row.key} installed ${row.n} times`);
  });

  test("the partitions are shared out among the live nodes", async () => {
    const owners = await waitFor(async () => {
      const r = await c.db.query("select owner, count(*)::int as n from partition_leases group by owner");
      const held = r.rows.filter((row) => row.owner !== null);
      // fair shares: ceil(64 / 3) = 22 at most each, so 20 at least
      return held.length === 3 && r.rows.every((row) => row.owner !== null && row.n >= 20 && row.n <= 22) ? held : undefined;
    }, 30_000, "every partition held, shared fairly by all three nodes");
    assert.equal(owners.reduce((sum, o) => sum + o.n, 0), 64);
  });

  test("an SSE stream on one node sees the events committed on another", async () => {
    const [n1, n2, n3] = c.nodes;
    const src = await create(c, n1, HTTP_COMPONENT);
    const owner = await waitFor(() => c.ownerOf(src.id), 10_000, "an owner");
    const watcher = c.nodes.find((n) => n !== owner)!;
    const stream = await connect(`${watcher.url}/sources/${src.id}/sse`, { authorization: `Bearer ${c.adminKey}` });
    try {
      await waitFor(async () => stream.text().startsWith(":sse-handshake"), 10_000, "handshake");
      const sender = [n1, n2, n3].find((n) => n !== owner && n !== watcher) ?? n1;
      assert.equal(await post(sender, endpointOf(src), { marker: "across" }), 200);
      const m = await waitFor(async () => stream.messages().find((x) => x.data?.event?.body?.marker === "across"), 10_000, "the event on the other node's stream");
      assert.ok(m.id);
    } finally {
      stream.close();
    }
  });

  test("disabling, subscribing and deleting on one node take effect on the others", async (t) => {
    const [n1, n2, n3] = c.nodes;
    const src = await create(c, n1, HTTP_COMPONENT);
    // every node has the endpoint cached now
    for (const n of c.nodes) assert.equal(await post(n, endpointOf(src), { warm: n.id }), 200);

    let started = Date.now();
    assert.equal((await c.api(n1, "PUT", `/v1/sources/${src.id}`, { active: false })).status, 200);
    for (const n of [n2, n3]) await waitFor(async () => (await post(n, endpointOf(src), { late: true })) === 404, 10_000, `${n.id} refusing a disabled source`);
    t.diagnostic(`disabled on every node after ${Date.now() - started} ms`);

    // a subscription made on node2 routes events committed by the emitter's owner, wherever it is
    assert.equal((await c.api(n1, "PUT", `/v1/sources/${src.id}`, { active: true })).status, 200);
    const listener = await create(c, n1, LISTENER);
    await waitFor(async () => (await post(n3, endpointOf(src), { before: true })) === 200, 10_000, "enabled again");
    started = Date.now();
    const sub = await c.api(n2, "POST", `/v1/subscriptions?emitter_id=${src.id}&listener_id=${listener.id}`);
    assert.equal(sub.status, 200);
    assert.equal(await post(n3, endpointOf(src), { routed: 1 }), 200);
    await waitFor(async () => (await stored(c, listener.id)).some((e) => e.heard?.body?.routed === 1), 10_000, "the listener hearing the event");
    t.diagnostic(`subscription effective after ${Date.now() - started} ms`);

    // deleted on node3: gone on every node, and live streams elsewhere end
    const stream = await connect(`${n1.url}/sources/${src.id}/sse`, { authorization: `Bearer ${c.adminKey}` });
    await waitFor(async () => stream.text().startsWith(":sse-handshake"), 10_000, "handshake");
    assert.equal((await c.api(n3, "DELETE", `/v1/sources/${src.id}`)).status, 200);
    for (const n of [n1, n2]) await waitFor(async () => (await post(n, endpointOf(src), { gone: true })) === 404, 10_000, `${n.id} refusing a deleted source`);
    await stream.ended;
  });

  test("an endpoint that answers itself runs on its owner, whichever node takes the request", async () => {
    const src = await create(c, c.nodes[0], RESPONDER);
    const path = endpointOf(src);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const node = c.nodes[i % c.nodes.length];
      const res = await fetch(node.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      assert.equal(res.status, 201, `${node.id}: ${await res.clone().text()}`);
      assert.equal(res.headers.get("x-n"), String(((await res.json()) as { n: number }).n));
      answers.push(Number(res.headers.get("x-n")));
    }
    // one writer: the db counter went 1, 2, 3... whichever node each request reached
    assert.deepEqual(answers, answers.map((_, i) => i + 1));
  });

  test("HTTP requests spread over the nodes are each stored once, also across kill -9 of a node mid-load", async (t) => {
    const src = await create(c, c.nodes[0], HTTP_COMPONENT);
    const path = endpointOf(src);
    const owner = await waitFor(() => c.ownerOf(src.id), 10_000, "an owner");
    // the node killed is the source's owner when that isn't the node the test reads through
    const victim = owner !== c.nodes[0] ? owner : c.nodes[c.nodes.length - 1];
    const targets = [...c.nodes];
    const acked: number[] = [];
    const TOTAL = 240;
    let next = 0;
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        if (i === TOTAL / 3) void c.kill(victim);
        const node = targets[i % targets.length];
        const status = await post(node, path, { i }).catch(() => 0);
        if (status === 200) acked.push(i);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    t.diagnostic(`${acked.length} of ${TOTAL} acknowledged; ${victim.id} was killed`);
    assert.ok(acked.length >= TOTAL / 2);
    const seen = await waitFor(async () => {
      const events = await stored(c, src.id);
      const ids = events.map((e) => e.body.i as number);
      return acked.every((i) => ids.includes(i)) ? ids : undefined;
    }, 60_000, "every acknowledged request stored");
    const counts = new Map<number, number>();
    for (const i of seen) counts.set(i, (counts.get(i) ?? 0) + 1);
    const doubled = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(doubled, [], "no request stored twice");
  });

  test("timer ticks run once each across nodes, and keep running after kill -9 of their owner", async (t) => {
    // a node to replace the one killed above, so the timers spread over three again
    await c.add("node4");
    const sources = await Promise.all([1, 2, 3, 4, 5, 6].map(() => create(c, c.nodes[0], COUNTER)));
    for (const s of sources) await waitFor(async () => (await stored(c, s.id)).length >= 2, 30_000, `ticks of ${s.id}`);
    let victimSource: string | undefined;
    let victim: Node | undefined;
    for (const s of sources) {
      const o = await c.ownerOf(s.id);
      if (o && o !== c.nodes[0]) {
        victimSource = s.id;
        victim = o;
        break;
      }
    }
    assert.ok(victim && victimSource, "some timer runs on a node other than the first");
    const before = (await stored(c, victimSource)).length;
    const killedAt = Date.now();
    await c.kill(victim);
    await waitFor(async () => (await stored(c, victimSource)).length >= before + 3, 30_000, "ticks after the owner's death");
    t.diagnostic(`ticks resumed elsewhere within ${Date.now() - killedAt} ms of kill -9`);
    for (const s of sources) {
      const events = await stored(c, s.id);
      const ns = events.map((e) => e.n as number);
      // one writer per source: the db counter goes up by one per committed tick, never twice
      assert.deepEqual(ns, ns.map((_, i) => i + 1), `${s.id} ran a tick twice or lost its db: ${ns.join(",")}`);
    }
  });
});

describe("several nodes: a restart under the same node id", { skip: clusterSkip() }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster(1);
  });
  after(async () => {
    await c?.close();
  });

  test("takes the node's partitions back at once, without waiting for its old leases to expire", async () => {
    // a second node whose leases last a minute: killed, nobody else may take them for that long
    const slow = await c.add("steady", { TRIBUTARY_LEASE_TTL_MS: "60000" });
    const held = async () => Number((await c.db.query("select count(*)::int as n from partition_leases where owner = 'steady'")).rows[0].n);
    await waitFor(async () => (await held()) >= 20, 30_000, "the second node holding its share");
    const before = (await c.db.query("select id, epoch from partition_leases where owner = 'steady' order by id")).rows;
    await c.kill(slow);
    const back = await c.add("steady", { TRIBUTARY_LEASE_TTL_MS: "60000" });
    const after = await waitFor(async () => {
      const r = (await c.db.query("select id, epoch from partition_leases where owner = 'steady' order by id")).rows;
      // every lease taken again, each under a new epoch (fencing the old process, were it alive)
      return r.length >= before.length && before.every((b) => r.some((x) => x.id === b.id && Number(x.epoch) > Number(b.epoch))) ? r : undefined;
    }, 15_000, "the restarted node holding its partitions again");
    assert.ok(after.length >= before.length);
    assert.ok(back);
  });
});

describe("several nodes: quotas", { skip: clusterSkip() }, () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster(2, { TRIBUTARY_DAILY_INVOCATIONS_QUOTA: "10" });
  });
  after(async () => {
    await c?.close();
  });

  test("a daily quota used up through one node holds on the others", async () => {
    const [n1, n2] = c.nodes;
    const src = await create(c, n1, HTTP_COMPONENT);
    // node2 has the endpoint (and the user's usage, none yet) cached before the quota is used
    assert.equal(await post(n2, endpointOf(src), { i: 0 }), 200);
    for (let i = 1; i < 10; i++) assert.equal(await post(n1, endpointOf(src), { i }), 200);
    await waitFor(async () => (await stored(c, src.id)).length >= 10, 20_000, "the 10 runs");
    for (const n of [n1, n2]) await waitFor(async () => (await post(n, endpointOf(src), { over: n.id })) === 429, 10_000, `${n.id} refusing past the quota`);
  });

  test("requests alternating through two nodes: together they accept exactly the quota, and store as many runs", async () => {
    const [n1, n2] = c.nodes;
    const made = await c.api(n1, "POST", "/v1/users", { username: `quota${Date.now()}`, email: `q${Date.now()}@example.com` });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const key = made.body.data.api_key as string;
    const res = await fetch(`${n1.url}/v1/sources`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ component_code: HTTP_COMPONENT }),
    });
    const src = ((await res.json()) as { data: { id: string; configured_props: Record<string, any> } }).data;
    // both nodes know the endpoint (and have no usage of this user counted) before the burst
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push(await post(i % 2 === 0 ? n1 : n2, endpointOf(src), { i }));
    assert.equal(statuses.filter((s) => s === 200).length, 10, `statuses: ${statuses.join(",")}`);
    assert.equal(statuses.filter((s) => s === 429).length, 20);
    await waitFor(async () => (await stored(c, src.id)).length >= 10, 20_000, "the 10 runs");
    // at once, through both: still no more than the quota
    const more = await Promise.all([n1, n2, n1, n2].map((n, i) => post(n, endpointOf(src), { late: i })));
    assert.deepEqual(more, [429, 429, 429, 429]);
    assert.equal((await stored(c, src.id)).length, 10);
  });
});

/** Redis behind a proxy the test can cut: every connection dropped, new ones refused, until restored. */
async function redisProxy(target: URL) {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = netConnect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("several nodes: Redis goes away and comes back", { skip: clusterSkip() }, () => {
  let c: Cluster;
  let proxy: Awaited<ReturnType<typeof redisProxy>>;
  before(async () => {
    proxy = await redisProxy(new URL(process.env.REDIS_URL!));
    c = await startCluster(2, { REDIS_URL: proxy.url });
  });
  after(async () => {
    await c?.close();
    await proxy?.close();
  });

  test("a change made during the outage reaches the other node once Redis is back, and its live streams end to catch up", async () => {
    const [n1, n2] = c.nodes;
    const disabled = await create(c, n1, HTTP_COMPONENT);
    const streamed = await create(c, n1, HTTP_COMPONENT);
    // n2 has both cached, and watches one live
    for (const s of [disabled, streamed]) assert.equal(await post(n2, endpointOf(s), { warm: true }), 200);
    const stream = await connect(`${n2.url}/sources/${streamed.id}/sse`, { authorization: `Bearer ${c.adminKey}` });
    try {
      await waitFor(async () => stream.text().startsWith(":sse-handshake"), 10_000, "handshake");
      proxy.cut();
      assert.equal((await c.api(n1, "PUT", `/v1/sources/${disabled.id}`, { active: false })).status, 200);
      assert.equal(await post(n1, endpointOf(disabled), { during: true }), 404);
      // events made through n1 while n2 can't hear of them
      for (let i = 0; i < 3; i++) assert.equal(await post(n1, endpointOf(streamed), { missed: i }), 200);
      proxy.restore();
      // n2 reads the source again: disabled
      await waitFor(async () => (await post(n2, endpointOf(disabled), { after: true })) === 404, 20_000, "n2 refusing the source disabled during the outage");
      // n2's live stream was ended, so its client reconnects and catches up from the store
      await stream.ended;
      const last = stream.messages().at(-1)?.id;
      const again = await connect(`${n2.url}/sources/${streamed.id}/sse`, { authorization: `Bearer ${c.adminKey}`, ...(last ? { "last-event-id": last } : {}) });
      try {
        await waitFor(async () => again.messages().filter((m) => m.data?.event?.body?.missed !== undefined).length === 3, 15_000, "the missed events replayed");
      } finally {
        again.close();
      }
    } finally {
      stream.close();
      proxy.restore();
    }
  });
});
