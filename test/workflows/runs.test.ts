import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApp, waitFor, type Reply, type TestApp } from "../helpers.ts";

// Every execution of a workflow is a run (docs/writing-workflows.md, "Runs"), recorded with each step as far as the run
// got: what it returned, exported, logged and summarized, its error, and the steps it never
// reached. Black-box: the workflow runs for real, the run is read back through the API.

interface User {
  id: string;
  key: string;
}

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

let t: TestApp;
before(async () => (t = await startApp()));
after(() => t.close());

const call = (user: User, method: string, url: string, body?: unknown): Promise<Reply> => t.request(method, url, { key: user.key, ...(body === undefined ? {} : { body }) });

async function httpWorkflow(user: User, steps: unknown[]): Promise<any> {
  const res = await call(user, "POST", "/v1/workflows", { name: "runs", steps, trigger: { type: "http" } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

async function trigger(w: any, body: unknown): Promise<void> {
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });
  assert.equal(res.status, 200, res.text);
}

/** waits for the workflow's runs to reach `n`, all ended; returns them newest first */
const runs = (user: User, w: any, n = 1) =>
  waitFor(async () => {
    const res = await call(user, "GET", `/v1/workflows/${w.id}/runs`);
    assert.equal(res.status, 200, res.text);
    const list = res.body.data as any[];
    return list.length >= n && list.every((r) => r.status !== "running" && r.status !== "suspended") ? list : undefined;
  }, 10_000, `${n} ended runs of ${w.id}`);

const run = async (user: User, id: string, expand = "") => {
  const res = await call(user, "GET", `/v1/runs/${id}${expand ? `?expand=${expand}` : ""}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
};

describe("workflow runs, recorded as they run", () => {
  it("a run that succeeds: each step's return value, exports, logs and the summary", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "first", code: step(`console.log("first here"); $.export("half", steps.trigger.event.body.n / 2); return { n: steps.trigger.event.body.n };`) },
      { name: "second", code: step(`console.warn("second", steps.first.half); $.summary = "doubled " + steps.first.$return_value.n; return steps.first.$return_value.n * 2;`) },
    ]);
    await trigger(w, { n: 21 });
    const [listed] = await runs(user, w);
    assert.match(listed.id, /^r_/);
    const r = await run(user, listed.id, "event,steps");
    assert.equal(r.workflow_id, w.id);
    assert.equal(r.status, "succeeded");
    assert.equal(r.deployment_id, w.deployment_id);
    assert.equal(r.summary, "doubled 21");
    assert.equal(r.trigger_event.body.n, 21);
    assert.ok(r.ended_at_ms >= r.started_at_ms);
    assert.deepEqual(r.steps.map((s: any) => [s.name, s.id, s.status, s.attempts]), [
      ["first", w.steps[0].id, "succeeded", 1],
      ["second", w.steps[1].id, "succeeded", 1],
    ]);
    assert.deepEqual(r.steps[0].return_value, { n: 21 });
    assert.deepEqual(r.steps[0].exports, { half: 10.5 });
    assert.equal(r.steps[1].return_value, 42);
    assert.deepEqual(r.steps[0].logs.map((l: any) => [l.level, l.msg]), [["log", "first here"]]);
    assert.deepEqual(r.steps[1].logs.map((l: any) => [l.level, l.msg]), [["warn", "second 10.5"]]);
  });

  it("a run whose step throws: failed, the error on that step, the steps after it skipped", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "ok", code: step(`return 1;`) },
      { name: "boom", code: step(`throw new TypeError("no way");`) },
      { name: "never", code: step(`return 3;`) },
    ]);
    await trigger(w, {});
    const [listed] = await runs(user, w);
    const r = await run(user, listed.id);
    assert.equal(r.status, "failed");
    assert.deepEqual(r.steps.map((s: any) => s.status), ["succeeded", "failed", "skipped"]);
    assert.equal(r.steps[1].error.name, "TypeError");
    assert.equal(r.steps[1].error.message, "no way");
    assert.equal(r.steps[2].attempts, 0);
    const failed = await call(user, "GET", `/v1/workflows/${w.id}/runs?status=failed`);
    assert.deepEqual(failed.body.data.map((x: any) => x.id), [listed.id]);
    const succeeded = await call(user, "GET", `/v1/workflows/${w.id}/runs?status=succeeded`);
    assert.deepEqual(succeeded.body.data, []);
  });

  it("$.flow.exit(): the run is exited, the steps after it skipped", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "stop", code: step(`$.flow.exit("enough");`) },
      { name: "never", code: step(`return 2;`) },
    ]);
    await trigger(w, {});
    const [listed] = await runs(user, w);
    const r = await run(user, listed.id);
    assert.equal(r.status, "exited");
    assert.deepEqual(r.steps.map((s: any) => s.status), ["succeeded", "skipped"]);
  });

  it("runs are listed newest first; another user sees none of them", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const w = await httpWorkflow(user, [{ name: "echo", code: step(`return steps.trigger.event.body.i;`) }]);
    for (let i = 0; i < 3; i++) {
      await trigger(w, { i });
      await runs(user, w, i + 1);
    }
    const list = await runs(user, w, 3);
    const values = [];
    for (const r of list) values.push((await run(user, r.id)).steps[0].return_value);
    assert.deepEqual(values, [2, 1, 0]);
    assert.equal((await call(other, "GET", `/v1/workflows/${w.id}/runs`)).status, 404);
    assert.equal((await call(other, "GET", `/v1/runs/${list[0].id}`)).status, 404);
  });

  it("a replay runs the workflow again with the same trigger event", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [{ name: "echo", code: step(`return steps.trigger.event.body.word;`) }]);
    await trigger(w, { word: "again" });
    const [first] = await runs(user, w);
    const replay = await call(user, "POST", `/v1/runs/${first.id}/replay`);
    assert.equal(replay.status, 202, replay.text);
    assert.match(replay.body.data.id, /^r_/);
    const list = await runs(user, w, 2);
    const replayed = await run(user, list[0].id);
    assert.equal(replayed.id, replay.body.data.id);
    assert.equal(replayed.replay_of, first.id);
    assert.equal(replayed.steps[0].return_value, "again");
  });

  it("a replay counts as one of the owner's runs; a replayed custom_response run answers nobody (response null, not 502)", async () => {
    const user = await t.newUser();
    const res = await call(user, "POST", "/v1/workflows", {
      name: "answers",
      trigger: { type: "http", custom_response: true },
      steps: [{ name: "a", code: step(`$.respond({ status: 201, body: "ok" }); return 1;`) }],
    });
    const w = res.body.data;
    const sent = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    assert.equal(sent.status, 201);
    const [first] = await runs(user, w);
    assert.deepEqual(first.response, { status: 201 });
    const used = async () => (await call(user, "GET", "/v1/users/me")).body.data.daily_invocations_used as number;
    const before = await used();
    assert.equal((await call(user, "POST", `/v1/runs/${first.id}/replay`)).status, 202);
    const [replayed] = await runs(user, w, 2);
    assert.equal(replayed.replay_of, first.id);
    assert.equal(replayed.status, "succeeded");
    assert.equal(replayed.response, null);
    assert.equal(await used(), before + 1);
  });
});
