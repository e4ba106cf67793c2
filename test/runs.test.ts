import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { CommitBatch, RunRow, RunStepRow } from "../src/store/port.ts";
import { newId } from "../src/lib/ids.ts";
import { assertErrorEnvelope, detailFields, startApp, waitFor, type TestApp } from "./helpers.ts";

// Workflow runs (docs/api.md, "Runs") through the API. The engine that writes runs is built apart, so
// these tests write runs the way it will: through the store's commit (CommitBatch.runs, runSteps,
// runTrims), for workflows made through the API.

const RUN_FIELDS = ["deployment_current", "deployment_id", "ended_at_ms", "id", "replay_of", "response", "retry_of", "started_at_ms", "started_by", "status", "summary", "trigger_event", "waiting", "workflow_id"];
const STEP_FIELDS = ["attempts", "ended_at_ms", "exports", "id", "logs", "name", "return_value", "sends", "started_at_ms", "status"];

interface User {
  id: string;
  key: string;
}

interface Workflow {
  id: string;
  deployment_id: string;
  steps: { id: string; name: string }[];
}

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

function batch(part: Partial<CommitBatch>): CommitBatch {
  return { events: [], states: [], inboxDone: [], timers: [], usage: [], trims: [], deliveries: [], deliveriesDone: [], runs: [], runSteps: [], runTrims: [], dataStores: [], sends: [], ...part };
}

let clock = 1_700_000_000_000;

function runOf(user: User, w: Workflow, over: Partial<RunRow> = {}): RunRow {
  const status = over.status ?? "succeeded";
  const started = ++clock;
  return {
    id: newId("r_"),
    workflow_id: w.id,
    user_id: user.id,
    deployment_id: w.deployment_id,
    status,
    cursor: 1,
    trigger_event: JSON.stringify({ n: started }),
    trigger_kind: "EMIT",
    summary: null,
    response_status: null,
    replay_of: null,
    retry_of: null,
    started_at_ms: started,
    ended_at_ms: status === "running" || status === "suspended" ? null : started + 5,
    due_at_ms: null,
    partition: 0,
    wait: null,
    ...over,
  };
}

function stepOf(run: RunRow, idx: number, over: Partial<RunStepRow> = {}): RunStepRow {
  return {
    run_id: run.id,
    idx,
    cell_id: `c_cell${idx}`,
    name: `step${idx}`,
    status: "succeeded",
    started_at_ms: run.started_at_ms + idx,
    ended_at_ms: run.started_at_ms + idx + 1,
    return_value: JSON.stringify(idx),
    exports: null,
    logs: null,
    error: null,
    attempts: 1,
    resume_data: null,
    ...over,
  };
}

describe("workflow runs", () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  before(async () => {
    t = await startApp();
    alice = await t.newUser();
    bob = await t.newUser();
  });
  after(() => t.close());

  const commit = (part: Partial<CommitBatch>) => t.app.store.events.commit(batch(part));

  async function workflow(user: User, code = step("return 1;")): Promise<Workflow> {
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "wf", steps: [{ name: "only", code }] } });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  async function get(user: User, url: string): Promise<any> {
    const res = await t.request("GET", url, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  it("GET /workflows/{id}/runs: newest first, paged with cursors both ways, without steps", async () => {
    const w = await workflow(alice);
    const runs = [0, 1, 2, 3, 4, 5, 6].map(() => runOf(alice, w));
    // four in one group, three in groups of their own: the list follows the order they were written
    await commit({ runs: runs.slice(0, 4) });
    for (const r of runs.slice(4)) await commit({ runs: [r] });
    const newest = runs.map((r) => r.id).reverse();

    const first = await get(alice, `/v1/workflows/${w.id}/runs?limit=3`);
    assert.deepEqual(first.page_info.total_count, 7);
    assert.equal(first.page_info.count, 3);
    assert.deepEqual(first.data.map((r: any) => r.id), newest.slice(0, 3));
    for (const r of first.data) assert.deepEqual(Object.keys(r).sort(), RUN_FIELDS, "a list leaves the steps out");
    const second = await get(alice, `/v1/workflows/${w.id}/runs?limit=3&after=${first.page_info.end_cursor}`);
    assert.deepEqual(second.data.map((r: any) => r.id), newest.slice(3, 6));
    const third = await get(alice, `/v1/workflows/${w.id}/runs?limit=3&after=${second.page_info.end_cursor}`);
    assert.deepEqual(third.data.map((r: any) => r.id), newest.slice(6));
    const back = await get(alice, `/v1/workflows/${w.id}/runs?limit=3&before=${third.page_info.start_cursor}`);
    assert.deepEqual(back.data.map((r: any) => r.id), newest.slice(3, 6));

    const one = first.data[0];
    const last = runs[6]!;
    assert.deepEqual(one, {
      id: last.id,
      workflow_id: w.id,
      status: "succeeded",
      trigger_event: JSON.parse(last.trigger_event),
      deployment_id: w.deployment_id,
      deployment_current: true,
      started_at_ms: last.started_at_ms,
      ended_at_ms: last.ended_at_ms,
      summary: null,
      started_by: "event",
      response: null,
      replay_of: null,
      retry_of: null,
      waiting: null,
    });
  });

  it("?status= filters the list; a status that isn't one is a 400 naming status, a bad expand one naming expand", async () => {
    const w = await workflow(alice);
    const statuses = ["succeeded", "failed", "running", "failed", "suspended", "exited", "cancelled", "failed"] as const;
    const runs = statuses.map((status) => runOf(alice, w, { status }));
    await commit({ runs });
    const failed = await get(alice, `/v1/workflows/${w.id}/runs?status=failed&limit=2`);
    assert.equal(failed.page_info.total_count, 3);
    const failedIds = runs.filter((r) => r.status === "failed").map((r) => r.id).reverse();
    assert.deepEqual(failed.data.map((r: any) => r.id), failedIds.slice(0, 2));
    const rest = await get(alice, `/v1/workflows/${w.id}/runs?status=failed&limit=2&after=${failed.page_info.end_cursor}`);
    assert.deepEqual(rest.data.map((r: any) => r.id), failedIds.slice(2));
    for (const status of ["running", "suspended", "exited", "cancelled"]) {
      const only = await get(alice, `/v1/workflows/${w.id}/runs?status=${status}`);
      assert.deepEqual(only.data.map((r: any) => r.status), [status]);
    }
    assert.equal((await get(alice, `/v1/workflows/${w.id}/runs`)).page_info.total_count, statuses.length);

    const bad = await t.request("GET", `/v1/workflows/${w.id}/runs?status=done`, { key: alice.key });
    assertErrorEnvelope(bad, 400, "invalid_request");
    assert.deepEqual(detailFields(bad), ["status"]);
    const badExpand = await t.request("GET", `/v1/runs/${runs[0]!.id}?expand=event,everything`, { key: alice.key });
    assertErrorEnvelope(badExpand, 400, "invalid_request");
    assert.deepEqual(detailFields(badExpand), ["expand"]);
  });

  it("GET /runs/{id}: the run with its steps in order; large values truncated unless expanded", async () => {
    const w = await workflow(alice);
    const event = { body: { text: "é".repeat(1500) }, method: "POST" };
    const run = runOf(alice, w, { status: "failed", trigger_event: JSON.stringify(event), trigger_kind: "HTTP", summary: "two of three", response_status: 200, cursor: 2 });
    const big = { rows: Array.from({ length: 300 }, (_, i) => ({ i, label: `row ${i}` })) };
    const logs = [{ level: "log", msg: "hello", ts: run.started_at_ms }];
    const error = { name: "TypeError", message: "x is undefined", stack: "TypeError: x is undefined\n    at step1" };
    // written out of order: the API shows them by position
    await commit({
      runs: [run],
      runSteps: [
        stepOf(run, 2, { status: "skipped", started_at_ms: null, ended_at_ms: null, return_value: null, attempts: 0 }),
        stepOf(run, 0, { return_value: JSON.stringify(big), exports: JSON.stringify({ total: 300 }), logs: JSON.stringify(logs) }),
        stepOf(run, 1, { status: "failed", return_value: null, error: JSON.stringify(error), attempts: 3 }),
      ],
    });
    const eventJson = JSON.stringify(event);
    const bigJson = JSON.stringify(big);
    const eventCut = { $truncated: true, bytes: Buffer.byteLength(eventJson), preview: eventJson.slice(0, 1024) };
    const bigCut = { $truncated: true, bytes: bigJson.length, preview: bigJson.slice(0, 4096) };
    assert.ok(eventCut.bytes > eventJson.length, "the size is in bytes, not characters");

    const plain = (await get(alice, `/v1/runs/${run.id}`)).data;
    assert.deepEqual(Object.keys(plain).sort(), [...RUN_FIELDS, "steps"].sort());
    assert.equal(plain.status, "failed");
    assert.equal(plain.summary, "two of three");
    assert.deepEqual(plain.response, { status: 200 });
    assert.deepEqual(plain.trigger_event, eventCut);
    assert.deepEqual(plain.steps.map((s: any) => [s.name, s.id, s.status]), [
      ["step0", "c_cell0", "succeeded"],
      ["step1", "c_cell1", "failed"],
      ["step2", "c_cell2", "skipped"],
    ]);
    const [s0, s1, s2] = plain.steps;
    assert.deepEqual(Object.keys(s0).sort(), STEP_FIELDS);
    assert.deepEqual(s0.return_value, bigCut);
    assert.deepEqual(s0.exports, { total: 300 });
    assert.deepEqual(s0.logs, logs);
    assert.deepEqual(s1.error, error, "a failed step says why");
    assert.equal(s1.attempts, 3);
    assert.equal(s1.return_value, null);
    assert.deepEqual(Object.keys(s2).sort(), STEP_FIELDS, "no error on a step that didn't fail");
    assert.deepEqual([s2.started_at_ms, s2.ended_at_ms, s2.return_value, s2.exports, s2.logs], [null, null, null, {}, []]);

    const withEvent = (await get(alice, `/v1/runs/${run.id}?expand=event`)).data;
    assert.deepEqual(withEvent.trigger_event, event);
    assert.deepEqual(withEvent.steps[0].return_value, bigCut);
    const withSteps = (await get(alice, `/v1/runs/${run.id}?expand=steps`)).data;
    assert.deepEqual(withSteps.trigger_event, eventCut);
    assert.deepEqual(withSteps.steps[0].return_value, big);
    const both = (await get(alice, `/v1/runs/${run.id}?expand=event,steps`)).data;
    assert.deepEqual([both.trigger_event, both.steps[0].return_value], [event, big]);
    // the list shows the event the same way
    const listed = (await get(alice, `/v1/workflows/${w.id}/runs`)).data[0];
    assert.deepEqual(listed.trigger_event, eventCut);
    assert.deepEqual((await get(alice, `/v1/workflows/${w.id}/runs?expand=event`)).data[0].trigger_event, event);
  });

  it("another user's workflow or run, and a malformed id, are 404 on every endpoint", async () => {
    const w = await workflow(alice);
    const run = runOf(alice, w, { status: "running" });
    await commit({ runs: [run], runSteps: [stepOf(run, 0, { status: "running" })] });
    const calls: Array<[string, string]> = [
      ["GET", `/v1/workflows/${w.id}/runs`],
      ["GET", `/v1/runs/${run.id}`],
      ["POST", `/v1/runs/${run.id}/replay`],
      ["POST", `/v1/runs/${run.id}/cancel`],
    ];
    for (const [method, url] of calls) assertErrorEnvelope(await t.request(method, url, { key: bob.key }), 404, "not_found");
    for (const [method, url] of [
      ["GET", "/v1/workflows/nope/runs"],
      ["GET", `/v1/workflows/${run.id}/runs`],
      ["GET", "/v1/runs/nope"],
      ["GET", `/v1/runs/${w.id}`],
      ["GET", "/v1/runs/r_doesnotexist00"],
      ["POST", "/v1/runs/nope/replay"],
      ["POST", "/v1/runs/nope/cancel"],
    ]) {
      assertErrorEnvelope(await t.request(method!, url!, { key: alice.key }), 404, "not_found");
    }
    // the owner still sees it all
    assert.equal((await get(alice, `/v1/runs/${run.id}`)).data.id, run.id);
  });

  it("POST /runs/{id}/replay: 202, and the workflow runs again with the run's trigger event", async () => {
    const w = await workflow(alice, step("$.send.emit({ raw_event: steps.trigger.event });"));
    const event = { replayed: "yes", n: 42, nested: { list: [1, 2, 3] } };
    const run = runOf(alice, w, { trigger_event: JSON.stringify(event) });
    await commit({ runs: [run] });
    const res = await t.request("POST", `/v1/runs/${run.id}/replay`, { key: alice.key });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.data.accepted, true);
    assert.match(res.body.data.id, /^r_/);
    const emitted = await waitFor(async () => {
      const page = await get(alice, `/v1/workflows/${w.id}/event_summaries?expand=event`);
      return page.data.length > 0 ? page.data : undefined;
    }, 15_000, "the replayed run's event");
    assert.deepEqual(emitted[0].event, { raw_event: event });
  });

  it("POST /runs/{id}/cancel: a suspended run is cancelled (its steps not ended skipped); one that ended is a 409 conflict", async () => {
    const w = await workflow(alice);
    const done = runOf(alice, w, { status: "succeeded" });
    const live = runOf(alice, w, { status: "suspended", due_at_ms: Date.now() + 60_000 });
    await commit({ runs: [done, live] });
    const res = await t.request("POST", `/v1/runs/${done.id}/cancel`, { key: alice.key });
    assertErrorEnvelope(res, 409, "conflict");
    assert.match(res.body.error.message, /the run has ended: succeeded/);
    await commit({ runSteps: [stepOf(live, 0, { status: "suspended" }), stepOf(live, 1, { status: "pending" })] });
    const cancelled = await t.request("POST", `/v1/runs/${live.id}/cancel`, { key: alice.key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.data.status, "cancelled");
    assert.ok(cancelled.body.data.ended_at_ms >= live.started_at_ms);
    assert.deepEqual(cancelled.body.data.steps.map((s: any) => s.status), ["succeeded", "skipped"]);
    assertErrorEnvelope(await t.request("POST", `/v1/runs/${live.id}/cancel`, { key: alice.key }), 409, "conflict");
  });

  it("retention (runTrims): the newest `keep` ended runs stay, live ones always; the others go with their steps", async () => {
    const w = await workflow(alice);
    const other = await workflow(alice);
    const running = runOf(alice, w, { status: "running" });
    const ended = (["succeeded", "failed", "exited", "cancelled", "succeeded"] as const).map((status) => runOf(alice, w, { status }));
    const elsewhere = [runOf(alice, other), runOf(alice, other)];
    const all = [running, ...ended];
    await commit({
      runs: [...all, ...elsewhere],
      runSteps: [...all, ...elsewhere].map((r) => stepOf(r, 0)),
      runTrims: [{ workflow_id: w.id, keep: 3 }],
    });
    const left = (await get(alice, `/v1/workflows/${w.id}/runs?limit=100`)).data.map((r: any) => r.id);
    assert.deepEqual(left, [ended[4]!.id, ended[3]!.id, ended[2]!.id, running.id]);
    for (const gone of ended.slice(0, 2)) {
      assert.equal(await t.app.store.runs.byId(gone.id), undefined);
      assert.deepEqual(await t.app.store.runs.steps(gone.id), [], "a removed run's steps go with it");
    }
    assert.equal((await t.app.store.runs.steps(running.id)).length, 1);
    assert.equal((await get(alice, `/v1/workflows/${other.id}/runs`)).page_info.total_count, 2, "another workflow's runs are its own");

    // a later trim with room to spare removes nothing
    await commit({ runTrims: [{ workflow_id: w.id, keep: 3 }] });
    assert.equal((await get(alice, `/v1/workflows/${w.id}/runs`)).page_info.total_count, 4);
  });

  it("a run written twice in one batch ends as the last write; an update keeps its place in the list", async () => {
    const w = await workflow(alice);
    const older = runOf(alice, w, { status: "running", cursor: 0, ended_at_ms: null });
    const newer = runOf(alice, w);
    await commit({ runs: [older, newer], runSteps: [stepOf(older, 0, { status: "running", ended_at_ms: null, return_value: null })] });
    const end = older.started_at_ms + 50;
    await commit({
      runs: [{ ...older, cursor: 1 }, { ...older, status: "succeeded", cursor: 2, ended_at_ms: end, summary: "done" }],
      runSteps: [
        stepOf(older, 0, { return_value: JSON.stringify("first") }),
        stepOf(older, 1, { status: "running", ended_at_ms: null, return_value: null }),
        stepOf(older, 0, { return_value: JSON.stringify("last") }),
        stepOf(older, 1, { return_value: JSON.stringify("second") }),
      ],
    });
    const got = (await get(alice, `/v1/runs/${older.id}`)).data;
    assert.deepEqual([got.status, got.ended_at_ms, got.summary], ["succeeded", end, "done"]);
    assert.deepEqual(got.steps.map((s: any) => [s.status, s.return_value]), [["succeeded", "last"], ["succeeded", "second"]]);
    assert.equal((await t.app.store.runs.byId(older.id))?.cursor, 2);
    const order = (await get(alice, `/v1/workflows/${w.id}/runs`)).data.map((r: any) => r.id);
    assert.deepEqual(order, [newer.id, older.id]);
  });

  it("a batch larger than one statement, each run and step written twice, keeps the last of each", async () => {
    const w = await workflow(alice);
    const runs = Array.from({ length: 150 }, () => runOf(alice, w, { status: "running", ended_at_ms: null }));
    const ended = runs.map((r) => ({ ...r, status: "succeeded" as const, ended_at_ms: r.started_at_ms + 1 }));
    await commit({
      runs: [...runs, ...ended],
      runSteps: [...runs.map((r) => stepOf(r, 0, { status: "running" })), ...runs.map((r) => stepOf(r, 0))],
    });
    const all = await get(alice, `/v1/workflows/${w.id}/runs?limit=100`);
    assert.equal(all.page_info.total_count, 150);
    assert.deepEqual(all.data.map((r: any) => r.id), runs.map((r) => r.id).reverse().slice(0, 100));
    assert.equal((await get(alice, `/v1/workflows/${w.id}/runs?status=succeeded`)).page_info.total_count, 150);
    assert.deepEqual((await t.app.store.runs.steps(runs[140]!.id)).map((s) => s.status), ["succeeded"]);
  });

  it("deleting the workflow deletes its runs and their steps; deleting a user deletes theirs", async () => {
    const w = await workflow(alice);
    const runs = [runOf(alice, w), runOf(alice, w, { status: "suspended" })];
    await commit({ runs, runSteps: runs.map((r) => stepOf(r, 0)) });
    assert.equal((await t.request("DELETE", `/v1/workflows/${w.id}`, { key: alice.key })).status, 200);
    for (const r of runs) {
      assert.equal(await t.app.store.runs.byId(r.id), undefined);
      assert.deepEqual(await t.app.store.runs.steps(r.id), []);
      assertErrorEnvelope(await t.request("GET", `/v1/runs/${r.id}`, { key: alice.key }), 404, "not_found");
    }

    const carol = await t.newUser();
    const hers = await workflow(carol);
    const run = runOf(carol, hers);
    await commit({ runs: [run], runSteps: [stepOf(run, 0)] });
    assert.equal((await t.request("DELETE", `/v1/users/${carol.id}`)).status, 200);
    assert.equal(await t.app.store.runs.byId(run.id), undefined);
    assert.deepEqual(await t.app.store.runs.steps(run.id), []);
  });
});
