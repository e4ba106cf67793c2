import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { clusterSkip, startCluster, type Cluster, type Node } from "./cluster-nodes.ts";
import { waitFor } from "./helpers.ts";

// Durable runs with several nodes (docs/writing-workflows.md, "Runs"; docs/several-nodes.md): a run waiting in $.flow.delay is
// a row of its workflow's partition, not a timer of one process. Two nodes share the store; runs
// triggered through both wait in their delay on the node that owns the workflow, which is then
// killed with SIGKILL: the surviving node takes the partition over and every run goes on there,
// at the step after its delay. Each step counts itself on a local server, so a committed step
// that ran again (or a next step run twice) shows.

const RUNS = 12;
// long enough to kill the owner while every run still waits, under load on a small machine
const DELAY_MS = 5000;

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

describe("several nodes: durable workflow runs", { skip: clusterSkip() }, () => {
  let c: Cluster;
  let counter: Server;
  let counterUrl = "";
  /** step runs counted by path: /<i>/<step> */
  const hits = new Map<string, number>();

  before(async () => {
    counter = createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      res.setHeader("content-type", "application/json");
      res.end("{}");
    });
    await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
    const port = (counter.address() as AddressInfo).port;
    counterUrl = `http://127.0.0.1:${port}`;
    c = await startCluster(2, { TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
    // Partitions first go to the node that starts first and are then shared out. A step whose
    // partition moves while it runs is fenced and runs again on the new owner (it hadn't
    // committed: that is allowed); this test is about a kill, so it starts once the share is made.
    await waitFor(async () => {
      const r = await c.db.query("select owner, count(*)::int as n from partition_leases group by owner");
      return r.rows.length === 2 && r.rows.every((row) => row.owner !== null && row.n >= 30 && row.n <= 34) ? true : undefined;
    }, 60_000, "the partitions shared out between the two nodes");
  });
  after(async () => {
    await c?.close();
    counter?.close();
  });

  /** the API as a user (not the admin) */
  const as = async (key: string, node: Node, method: string, path: string, body?: unknown) => {
    const res = await fetch(node.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  };

  it("a wait ends once: resume through one node and cancel through the other, at once, 10 of 10", { timeout: 180_000 }, async () => {
    const [n1, n2] = c.nodes;
    const made = await c.api(n1!, "POST", "/v1/users", { username: "racer", email: "racer@example.com" });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const key: string = made.body.data.api_key;
    const created = await as(key, n1!, "POST", "/v1/workflows", {
      name: "races across nodes",
      trigger: { type: "http" },
      steps: [
        { name: "ask", code: step(`const u = $.flow.suspend(); $.export("urls", u);`) },
        { name: "act", code: step(`await fetch("${counterUrl}/race/" + steps.trigger.context.id);`) },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    const endpoint = new URL(w.trigger.endpoint_url).pathname;
    for (let i = 0; i < 10; i++) {
      assert.equal((await fetch(n1!.url + endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status, 200);
      const run = await waitFor(async () => {
        const runs = (await as(key, n2!, "GET", `/v1/workflows/${w.id}/runs?limit=100`)).body.data as any[];
        const waiting = runs.find((r) => r.status === "suspended");
        return waiting && (await as(key, n2!, "GET", `/v1/runs/${waiting.id}?expand=steps`)).body.data;
      }, 30_000, `run ${i + 1} to wait`);
      const urls = run.steps[0].exports.urls;
      const call = (node: Node, url: string) => fetch(node.url + new URL(url).pathname, { method: "POST" }).then((r) => r.status);
      const [resumed, cancelled] = await Promise.all([call(n1!, urls.resume_url), call(n2!, urls.cancel_url)]);
      assert.deepEqual([resumed, cancelled].sort(), [200, 409], `exactly one wins: resume ${resumed}, cancel ${cancelled}`);
      const ended = await waitFor(async () => {
        const r = (await as(key, n1!, "GET", `/v1/runs/${run.id}`)).body.data;
        return ["running", "suspended"].includes(r.status) ? undefined : r;
      }, 30_000, `run ${run.id} to end`);
      assert.equal(ended.status, resumed === 200 ? "succeeded" : "cancelled");
      assert.equal(hits.get(`/race/${run.id}`) ?? 0, resumed === 200 ? 1 : 0, "the step after the wait ran once if resumed, never if cancelled");
    }
    for (const k of [...hits.keys()]) if (k.startsWith("/race/")) hits.delete(k);
  });

  it("runs waiting in $.flow.delay go on, each step once, on the surviving node after kill -9 of their owner", { timeout: 180_000 }, async (t) => {
    const [n1] = c.nodes;
    const made = await c.api(n1, "POST", "/v1/users", { username: "delayer", email: "delayer@example.com" });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const key: string = made.body.data.api_key;

    const hit = (name: string) => `await fetch("${counterUrl}/" + steps.trigger.event.body.i + "/${name}");`;
    const created = await as(key, n1, "POST", "/v1/workflows", {
      name: "delay across nodes",
      trigger: { type: "http" },
      steps: [
        { name: "wait", code: step(`${hit("wait")} $.export("i", steps.trigger.event.body.i); $.flow.delay(${DELAY_MS}); return steps.trigger.event.body.i;`) },
        { name: "after", code: step(`${hit("after")} return steps.wait.$return_value * 10;`) },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    const endpoint = new URL(w.trigger.endpoint_url).pathname;

    // triggered through both nodes' ingress
    const triggeredAt = Date.now();
    for (let i = 0; i < RUNS; i++) {
      const node = c.nodes[i % c.nodes.length];
      const res = await fetch(node.url + endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ i }) });
      assert.equal(res.status, 200, `${node.id}: ${await res.text()}`);
    }
    const listRuns = async (node: Node) => {
      const res = await as(key, node, "GET", `/v1/workflows/${w.id}/runs?limit=100`);
      assert.equal(res.status, 200, res.text);
      return res.body.data as any[];
    };
    await waitFor(async () => {
      const runs = await listRuns(n1);
      return runs.length === RUNS && runs.every((r) => r.status === "suspended");
    }, 30_000, `all ${RUNS} runs suspended in their delay`);

    const owner = await waitFor(() => c.ownerOf(w.id), 10_000, "the workflow's owner");
    const survivor = c.nodes.find((n) => n !== owner)!;
    // the kill must come while every run still waits: no second step has started anywhere yet
    const early = [...hits.keys()].filter((k) => k.endsWith("/after"));
    assert.deepEqual(early, [], `second steps ran before the kill (${Date.now() - triggeredAt} ms after the first trigger): raise DELAY_MS`);
    const killedAt = Date.now();
    await c.kill(owner);
    t.diagnostic(`${owner.id} (the owner) killed ${killedAt - triggeredAt} ms after the first trigger; reading through ${survivor.id}`);

    const done = await waitFor(async () => {
      const runs = await listRuns(survivor);
      return runs.length === RUNS && runs.every((r) => r.status === "succeeded") ? runs : undefined;
    }, 60_000, `all ${RUNS} runs succeeded on ${survivor.id} after the owner's kill -9`).catch(async (e: Error) => {
      const runs = await listRuns(survivor).catch(() => []);
      throw new Error(`${e.message}; statuses: ${JSON.stringify(runs.map((r) => [r.id, r.status]))}`);
    });
    t.diagnostic(`every run succeeded ${Date.now() - killedAt} ms after the kill`);
    assert.equal(await c.ownerOf(w.id), survivor, "the survivor holds the workflow's partition");

    const seen = new Set<number>();
    for (const listed of done) {
      const res = await as(key, survivor, "GET", `/v1/runs/${listed.id}?expand=steps`);
      assert.equal(res.status, 200, res.text);
      const run = res.body.data;
      const i = run.trigger_event.body.i as number;
      seen.add(i);
      assert.deepEqual(
        run.steps.map((s: any) => [s.name, s.status, s.attempts]),
        [
          ["wait", "succeeded", 1],
          ["after", "succeeded", 1],
        ],
        `run ${run.id} (i=${i})`,
      );
      assert.deepEqual(run.steps[0].exports, { i });
      assert.equal(run.steps[1].return_value, i * 10);
      assert.ok(run.steps[1].started_at_ms - run.steps[0].ended_at_ms >= DELAY_MS - 100, `run ${run.id}: the second step waited for the delay`);
      // the first step had committed before the kill: it never runs again; the second runs once
      assert.equal(hits.get(`/${i}/wait`), 1, `run ${run.id} (i=${i}): its first step ran ${hits.get(`/${i}/wait`)} times`);
      assert.equal(hits.get(`/${i}/after`), 1, `run ${run.id} (i=${i}): its second step ran ${hits.get(`/${i}/after`)} times`);
    }
    assert.equal(seen.size, RUNS, "one run per trigger");
    assert.equal(hits.size, RUNS * 2, `no other step runs counted: ${JSON.stringify([...hits])}`);
  });
});
