import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresFor } from "../helpers.ts";
import { adminApi, childrenOf, startService as start, stopService as stop } from "../service-process.ts";
import { openStore } from "../../src/store/store.ts";

// docs/writing-workflows.md, "Runs": a run interrupted by a crash resumes at the first step that had not committed,
// never re-running a committed step. The service process runs a 4-step workflow (half the runs
// wait in $.flow.delay after their second step, every run's third step takes a while) and is
// killed with SIGKILL while runs are suspended and others mid-step. The steps committed at the
// kill are read from the store while the service is down; after a restart every accepted run
// completes, and every step that had committed ran exactly once (each step counts itself on a
// local server). Steps cut short by the kill ran again: that is allowed, they hadn't committed.

// all sent at once: they execute side by side, so the kill finds dozens of runs in flight
const RUNS = 50;

test("kill -9 with runs suspended and mid-step: every run completes, no committed step runs twice", { timeout: 120_000 }, async (t) => {
  const hits = new Map<string, number>();
  const counter = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    res.end("{}");
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  const port = (counter.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-wf-crash-"));
  const pg = await postgresFor();
  const adminKey = "crash-admin-key";
  const env = {
    TRIBUTARY_STORE: "sqlite",
    ...pg?.env,
    TRIBUTARY_DATA_DIR: dataDir,
    TRIBUTARY_ADMIN_KEY: adminKey,
    TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}`,
  };
  const hit = (name: string) => `await fetch("http://127.0.0.1:${port}/" + steps.trigger.context.id + "/${name}");`;
  const code = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;
  let service = await start(env);
  try {
    const api = adminApi(adminKey);
    const created = await api(service.url, "POST", "/v1/workflows", {
      name: "crash",
      trigger: { type: "http" },
      steps: [
        { name: "a", code: code(`${hit("a")} return 1;`) },
        { name: "b", code: code(`${hit("b")} if (steps.trigger.event.body.wait) $.flow.delay(3000); return 2;`) },
        { name: "c", code: code(`${hit("c")} await new Promise((r) => setTimeout(r, 150)); return 3;`) },
        { name: "d", code: code(`${hit("d")} return steps.a.$return_value + steps.b.$return_value + steps.c.$return_value;`) },
      ],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const w = created.body.data;
    const endpoint = new URL(w.trigger.endpoint_url).pathname;
    const sent = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => fetch(`${service.url}${endpoint}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ i, wait: i % 2 === 0 }) })),
    );
    for (const res of sent) assert.equal(res.status, 200);
    // kill once some runs wait in their delay and others are still going through their steps
    const deadline = Date.now() + 30_000;
    for (;;) {
      const suspended = await api(service.url, "GET", `/v1/workflows/${w.id}/runs?status=suspended`);
      if (suspended.body.data.length >= 2) break;
      if (Date.now() > deadline) throw new Error("no runs were suspended");
      await new Promise((r) => setTimeout(r, 20));
    }
    await stop(service.child, "SIGKILL");

    // what had committed when the service died
    const store = await openStore(pg ? { kind: "postgres", dataDir, databaseUrl: pg.env.DATABASE_URL } : { kind: "sqlite", dataDir });
    const committed: string[] = [];
    let suspendedAtKill = 0;
    let unfinishedAtKill = 0;
    try {
      const page = await store.runs.list(w.id, { limit: 100 });
      for (const run of page?.items ?? []) {
        if (run.status === "suspended") suspendedAtKill++;
        if (run.status !== "succeeded") unfinishedAtKill++;
        for (const s of await store.runs.steps(run.id)) if (s.status === "succeeded" || s.status === "suspended") committed.push(`/${run.id}/${s.name}`);
      }
    } finally {
      await store.close();
    }
    assert.ok(suspendedAtKill >= 2, `${suspendedAtKill} runs were suspended at the kill`);
    assert.ok(unfinishedAtKill > 0);

    service = await start(env);
    const runs = await (async () => {
      for (const until = Date.now() + 60_000; ; ) {
        const all = await api(service.url, "GET", `/v1/workflows/${w.id}/runs?limit=100`);
        const list = all.body.data as any[];
        if (list.length === RUNS && list.every((r) => r.status === "succeeded")) return list;
        if (Date.now() > until) throw new Error(`runs did not all complete: ${JSON.stringify(list.map((r) => r.status))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    for (const key of committed) assert.equal(hits.get(key), 1, `${key} had committed before the kill, and ran ${hits.get(key)} times`);
    for (const listed of runs) {
      const run = (await api(service.url, "GET", `/v1/runs/${listed.id}`)).body.data;
      assert.deepEqual(run.steps.map((s: any) => s.status), ["succeeded", "succeeded", "succeeded", "succeeded"], listed.id);
      assert.equal(run.steps[3].return_value, 6);
      for (const name of ["a", "b", "c", "d"]) assert.ok((hits.get(`/${run.id}/${name}`) ?? 0) >= 1, `${run.id}/${name} never ran`);
    }
    const again = [...hits].filter(([, n]) => n > 1).length;
    t.diagnostic(`at the kill: ${committed.length} steps committed, ${suspendedAtKill} runs suspended, ${unfinishedAtKill} unfinished; steps run again after the restart (cut short by the kill): ${again}`);
    await stop(service.child, "SIGTERM");
  } finally {
    await stop(service.child, "SIGKILL");
    counter.close();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("kill -9 of the runner with 50 runs in flight: every run completes, no step that had committed runs twice", { timeout: 120_000 }, async (t) => {
  const hits = new Map<string, number>();
  const counter = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    res.end("{}");
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  const port = (counter.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-wf-runner-kill-"));
  const pg = await postgresFor();
  const adminKey = "runner-kill-admin-key";
  const env = { TRIBUTARY_STORE: "sqlite", ...pg?.env, TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: adminKey, TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}`, TRIBUTARY_RUNNERS: "1" };
  const hit = (name: string) => `await fetch("http://127.0.0.1:${port}/" + steps.trigger.context.id + "/${name}");`;
  const code = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;
  const service = await start(env);
  try {
    const api = (method: string, path: string, body?: unknown) => adminApi(adminKey)(service.url, method, path, body);
    const created = await api("POST", "/v1/workflows", {
      name: "runner-kill",
      trigger: { type: "http" },
      steps: [
        { name: "a", code: code(`${hit("a")} return 1;`) },
        { name: "b", code: code(`${hit("b")} await new Promise((r) => setTimeout(r, 300)); return 2;`) },
        { name: "c", code: code(`${hit("c")} return 3;`) },
      ],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const w = created.body.data;
    const endpoint = new URL(w.trigger.endpoint_url).pathname;
    const sent = await Promise.all(Array.from({ length: RUNS }, (_, i) => fetch(`${service.url}${endpoint}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ i }) })));
    for (const res of sent) assert.equal(res.status, 200);
    // once most runs are in their slow step at once, note what has committed, then kill the runner
    const inB = () => [...hits.keys()].filter((k) => k.endsWith("/b")).length;
    for (const until = Date.now() + 30_000; inB() < RUNS / 2; await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > until) throw new Error(`only ${inB()} runs reached their slow step`);
    }
    const committed: string[] = [];
    for (const listed of (await api("GET", `/v1/workflows/${w.id}/runs?limit=100`)).body.data) {
      const run = (await api("GET", `/v1/runs/${listed.id}`)).body.data;
      for (const s of run.steps) if (s.status === "succeeded") committed.push(`/${run.id}/${s.name}`);
    }
    const runners = childrenOf(service.child.pid!);
    assert.ok(runners.length >= 1, "the service has no runner process");
    for (const pid of runners) process.kill(pid, "SIGKILL");
    const runs = await (async () => {
      for (const until = Date.now() + 60_000; ; ) {
        const list = (await api("GET", `/v1/workflows/${w.id}/runs?limit=100`)).body.data as any[];
        if (list.length === RUNS && list.every((r) => r.status === "succeeded")) return list;
        if (Date.now() > until) throw new Error(`runs did not all complete: ${JSON.stringify(list.map((r) => r.status))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    for (const key of committed) assert.equal(hits.get(key), 1, `${key} had committed before the kill, and ran ${hits.get(key)} times`);
    for (const listed of runs) for (const name of ["a", "b", "c"]) assert.ok((hits.get(`/${listed.id}/${name}`) ?? 0) >= 1, `${listed.id}/${name} never ran`);
    t.diagnostic(`at the kill: ${committed.length} steps committed, ${inB()} runs had reached their slow step; steps run again (cut short by the kill): ${[...hits.values()].filter((n) => n > 1).length}`);
    await stop(service.child, "SIGTERM");
  } finally {
    await stop(service.child, "SIGKILL");
    counter.close();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("kill -9 with a concurrency-1 queue: after the restart the runs go on one at a time, in the order they came", { timeout: 120_000 }, async () => {
  // each run's step says when it starts and ends; the queue is read back from those calls
  const calls: string[] = [];
  const counter = createServer((req, res) => {
    calls.push(req.url!);
    res.end("{}");
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  const port = (counter.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-wf-queue-crash-"));
  const pg = await postgresFor();
  const adminKey = "queue-crash-admin-key";
  const env = { TRIBUTARY_STORE: "sqlite", ...pg?.env, TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: adminKey, TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` };
  const say = (what: string) => `await fetch("http://127.0.0.1:${port}/" + steps.trigger.event.body.i + "/${what}");`;
  let service = await start(env);
  try {
    const api = adminApi(adminKey);
    const created = await api(service.url, "POST", "/v1/workflows", {
      name: "queue-crash",
      trigger: { type: "http" },
      settings: { concurrency: 1 },
      steps: [{ name: "work", code: `export default { async run({ steps }) { ${say("start")} await new Promise((r) => setTimeout(r, 100)); ${say("end")} } };` }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const w = created.body.data;
    const endpoint = `${service.url}${new URL(w.trigger.endpoint_url).pathname}`;
    const RUNS = 20;
    // one after another: the order they came in is known
    for (let i = 0; i < RUNS; i++) assert.equal((await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ i }) })).status, 200);
    // killed once a few have run, with the rest waiting in the queue
    for (const until = Date.now() + 30_000; calls.filter((c) => c.endsWith("/end")).length < 3; ) {
      if (Date.now() > until) throw new Error("the queue did not move");
      await new Promise((r) => setTimeout(r, 10));
    }
    await stop(service.child, "SIGKILL");
    service = await start(env);
    for (const until = Date.now() + 60_000; ; ) {
      const list = (await api(service.url, "GET", `/v1/workflows/${w.id}/runs?limit=100`)).body.data as any[];
      if (list.length === RUNS && list.every((r) => r.status === "succeeded")) break;
      if (Date.now() > until) throw new Error(`runs did not all complete: ${JSON.stringify(list.map((r) => r.status))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // a step cut short by the kill started again (allowed: it hadn't committed); otherwise each
    // start is followed by its own end before the next start, in the order the runs came
    const starts: number[] = [];
    let open: number | undefined;
    for (const call of calls) {
      const [, i, what] = call.split("/");
      if (what === "start") {
        if (open !== undefined && open !== Number(i)) assert.fail(`run ${i} started while run ${open} was executing: ${calls.join(" ")}`);
        open = Number(i);
        if (starts.at(-1) !== open) starts.push(open);
      } else if (Number(i) === open) open = undefined;
    }
    assert.deepEqual(starts, Array.from({ length: RUNS }, (_, i) => i), `the runs started in the order they came: ${calls.join(" ")}`);
    await stop(service.child, "SIGTERM");
  } finally {
    await stop(service.child, "SIGKILL");
    counter.close();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
