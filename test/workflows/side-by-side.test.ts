import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// Runs of one workflow execute side by side by default (each run's steps strictly in order), so a
// workflow whose steps wait on an API runs at the speed of that API, not one run at a time;
// settings.concurrency limits them (1: one at a time, in arrival order). Overlap is read from the
// runs' recorded step times, never from the wall clock of the test.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
let slow: Server;
let slowUrl = "";

before(async () => {
  // an API that answers after 300 ms
  slow = createServer((_req, res) => setTimeout(() => res.end('{"ok":true}'), 300));
  await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
  const port = (slow.address() as AddressInfo).port;
  slowUrl = `http://127.0.0.1:${port}`;
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
});
after(async () => {
  await t.close();
  slow.close();
});

const callsApi = (name: string) => ({
  name,
  code: `export default { async run({ steps }) { const r = await fetch("${slowUrl}/${name}"); return (await r.json()).ok; } };`,
});

async function runAll(user: User, settings: unknown, n: number, steps: unknown[] = [callsApi("one"), callsApi("two")]): Promise<any[]> {
  const created = await t.request("POST", "/v1/workflows", {
    key: user.key,
    body: { name: "api", trigger: { type: "http" }, steps, ...(settings ? { settings } : {}) },
  });
  assert.equal(created.status, 200, created.text);
  const w = created.body.data;
  const sent = await Promise.all(Array.from({ length: n }, (_, i) => t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { i } })));
  for (const res of sent) assert.equal(res.status, 200, res.text);
  const runs = await waitFor(async () => {
    const list = (await t.request("GET", `/v1/workflows/${w.id}/runs?limit=100`, { key: user.key })).body.data as any[];
    return list.length === n && list.every((r) => r.status === "succeeded") ? list : undefined;
  }, 60_000, `${n} runs to end`);
  return Promise.all(runs.map(async (r) => (await t.request("GET", `/v1/runs/${r.id}?expand=steps`, { key: user.key })).body.data));
}

describe("runs side by side", () => {
  it("20 runs of a workflow whose steps await a 300 ms API overlap; each run's steps stay in order", async () => {
    const user = await t.newUser();
    const runs = await runAll(user, undefined, 20);
    for (const run of runs) {
      assert.deepEqual(run.steps.map((s: any) => s.return_value), [true, true]);
      assert.ok(run.steps[1].started_at_ms >= run.steps[0].ended_at_ms, "a run's second step starts after its first has ended");
    }
    // every first step started before any of them ended: all 20 were waiting on the API at once
    const firsts = runs.map((r) => r.steps[0]);
    const lastStart = Math.max(...firsts.map((s) => s.started_at_ms));
    const firstEnd = Math.min(...firsts.map((s) => s.ended_at_ms));
    assert.ok(lastStart < firstEnd, `the first steps overlap (the last started ${lastStart - firstEnd} ms after the first ended)`);
  });

  it("settings.concurrency: 1 never overlaps", async () => {
    const user = await t.newUser();
    const runs = await runAll(user, { concurrency: 1 }, 5);
    const spans = runs.map((r) => [r.steps[0].started_at_ms, r.steps[1].ended_at_ms] as const).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) assert.ok(spans[i]![0] >= spans[i - 1]![1], `run ${i + 1} started after run ${i} ended`);
  });

  it("settings.concurrency: 1 holds for runs coming back from a wait: no step of one runs beside a step of another", async () => {
    const user = await t.newUser();
    // each run executes a moment, waits (not holding its place, so the next one starts), then calls the API
    const pause = { name: "pause", code: "export default { async run({ $ }) { $.flow.delay(50); } };" };
    const runs = await runAll(user, { concurrency: 1 }, 3, [pause, callsApi("work")]);
    const spans = runs.flatMap((r) => r.steps.map((s: any) => [s.started_at_ms, s.ended_at_ms, `${r.id} ${s.name}`] as const)).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) assert.ok(spans[i]![0] >= spans[i - 1]![1], `${spans[i]![2]} started before ${spans[i - 1]![2]} ended`);
  });

  it("settings.concurrency: runs start in the order they came, a run arriving after the limit was raised included", async () => {
    // the API records the order the runs called it in; run 0's call is held until released
    const order: number[] = [];
    let releaseFirst = () => {};
    const api = createServer((req, res) => {
      const i = Number(req.url!.slice(1));
      order.push(i);
      if (i === 0) releaseFirst = () => res.end("{}");
      else setTimeout(() => res.end("{}"), 50);
    });
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
    const allow = `127.0.0.1:${(api.address() as AddressInfo).port}`;
    const app = await startApp({ TRIBUTARY_FETCH_ALLOW: allow });
    try {
      const user = await app.newUser();
      const created = await app.request("POST", "/v1/workflows", {
        key: user.key,
        body: {
          name: "ordered",
          trigger: { type: "http" },
          settings: { concurrency: 1 },
          steps: [{ name: "call", code: `export default { async run({ steps }) { await (await fetch("http://${allow}/" + steps.trigger.event.body.i)).text(); } };` }],
        },
      });
      assert.equal(created.status, 200, created.text);
      const w = created.body.data;
      const send = async (i: number) => assert.equal((await app.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { i } })).status, 200);
      const listed = () => app.request("GET", `/v1/workflows/${w.id}/runs?limit=100`, { key: user.key }).then((r) => r.body.data as any[]);
      await send(0);
      await waitFor(async () => order.length === 1 || undefined, 15_000, "run 0 to call the API");
      for (const i of [1, 2, 3]) await send(i);
      await waitFor(async () => (await listed()).filter((r) => r.status === "suspended").length === 3 || undefined, 15_000, "runs 1-3 to wait in the queue");
      const raised = await app.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { settings: { concurrency: 2 } } });
      assert.equal(raised.status, 200, raised.text);
      await send(4);
      releaseFirst();
      await waitFor(async () => ((await listed()).filter((r) => r.status === "succeeded").length === 5 ? true : undefined), 30_000, "the 5 runs to end");
      assert.deepEqual(order, [0, 1, 2, 3, 4]);
    } finally {
      releaseFirst();
      await app.close();
      api.closeAllConnections();
      api.close();
    }
  });
});
