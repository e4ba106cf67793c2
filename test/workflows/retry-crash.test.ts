import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countingServer, postgresFor, waitFor } from "../helpers.ts";
import { adminApi, startService as start, stopService as stop } from "../service-process.ts";

// docs/writing-workflows.md, "Fixing a failed run": a retry is a run like any other, durable and
// exactly-once per step. A run fails at step 2 of 3 (its step 1 sent a request to a local
// receiver); the step is fixed and the run retried from it; while the retried step awaits the
// receiver, which holds its answer, the service is killed with SIGKILL and started again on the
// same data. The retry ends succeeded, step 1 never ran again, and what step 2 queued to send
// ($.send.http, sent once its step committed) was sent once.

const code = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

test("kill -9 while a retried step is in flight: the retry succeeds after a restart, the steps before it never run again", { timeout: 120_000 }, async () => {
  const receiver = await countingServer();
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-retry-crash-"));
  const pg = await postgresFor();
  const adminKey = "retry-crash-admin-key";
  const env = { TRIBUTARY_STORE: "sqlite", ...pg?.env, TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: adminKey, TRIBUTARY_FETCH_ALLOW: receiver.allow };
  const hits = (path: string) => receiver.hits.get(path) ?? 0;
  const steps = (b: string) => [
    { name: "a", code: code(`await (await fetch("${receiver.url}/a")).text(); return 1;`) },
    { name: "b", code: code(b) },
    { name: "c", code: code("return steps.a.$return_value + steps.b.$return_value;") },
  ];
  let service = await start(env);
  const api = (method: string, path: string, body?: unknown) => adminApi(adminKey)(service.url, method, path, body);
  const until = <T>(what: string, check: () => Promise<T | undefined>) => waitFor(check, 30_000, what);
  const ended = (id: string) =>
    until(`run ${id} to end`, async () => {
      const run = (await api("GET", `/v1/runs/${id}`)).body.data;
      return run && run.status !== "running" && run.status !== "suspended" ? run : undefined;
    });
  try {
    const created = await api("POST", "/v1/workflows", { name: "retry-crash", trigger: { type: "none" }, steps: steps(`throw new Error("b is broken");`) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const w = created.body.data;
    const started = await api("POST", `/v1/workflows/${w.id}/run`, { event: {} });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const failed = await ended(started.body.data.run_id);
    assert.equal(failed.status, "failed");
    assert.equal(hits("/a"), 1);

    // the fix: step b awaits the receiver, then queues a request, sent once b has committed
    const fix = `await (await fetch("${receiver.url}/b")).text(); $.send.http({ method: "POST", url: "${receiver.url}/b-sent", data: { ok: true } }); return 2;`;
    assert.equal((await api("PUT", `/v1/workflows/${w.id}`, { name: "retry-crash", trigger: { type: "none" }, steps: steps(fix) })).status, 200);
    receiver.holding.add("/b");
    const retried = await api("POST", `/v1/runs/${failed.id}/retry`, {});
    assert.equal(retried.status, 202, JSON.stringify(retried.body));
    const retryId = retried.body.data.id as string;
    // the retried step is in flight: it waits for the receiver's answer
    await until("the retried step to reach the receiver", async () => (hits("/b") >= 1 ? true : undefined));
    await stop(service.child, "SIGKILL");
    receiver.holding.clear();
    receiver.release();

    service = await start(env);
    const retry = await ended(retryId);
    assert.equal(retry.status, "succeeded", JSON.stringify(retry));
    assert.equal(retry.retry_of, failed.id);
    assert.equal(retry.started_by, "retry");
    assert.deepEqual(retry.steps.map((s: any) => [s.name, s.status, s.return_value]), [["a", "succeeded", 1], ["b", "succeeded", 2], ["c", "succeeded", 3]]);
    const sent = await until("step b's request to be sent", async () => {
      const run = (await api("GET", `/v1/runs/${retryId}`)).body.data;
      return run.steps[1].sends.length === 1 && run.steps[1].sends[0].status === "sent" ? run.steps[1].sends : undefined;
    });
    assert.equal(sent.length, 1);
    assert.equal(hits("/a"), 1, "step a ran only in the original run");
    assert.equal(hits("/b-sent"), 1, "step b's committed request was sent once");
    assert.ok(hits("/b") >= 2, `step b was cut short by the kill and ran again (${hits("/b")} times)`);
    await stop(service.child, "SIGTERM");
  } finally {
    await stop(service.child, "SIGKILL");
    receiver.close();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
