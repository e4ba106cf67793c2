import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, countingServer, startApp, waitFor, type CountingServer, type TestApp } from "../helpers.ts";

// Retrying a failed run from a step: a new run (retry_of the original) whose steps before that one
// are the original's committed results, not executed again (their side effects are counted at a
// local receiver), and which runs from that step on with the current deployment (a fix) or the
// run's own.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
let receiver: CountingServer;
let receiverUrl = "";

before(async () => {
  receiver = await countingServer();
  receiverUrl = receiver.url;
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: receiver.allow });
});
after(async () => {
  await t.close();
  receiver.close();
});

const api = (user: User, method: string, path: string, body?: unknown) => t.request(method, path, { key: user.key, ...(body === undefined ? {} : { body }) });
/** a step that counts itself at the receiver (per workflow and run) and returns `value` */
const counted = (name: string, value: string, extra = "") => ({
  name,
  code: `export default { async run({ steps, $ }) { await (await fetch("${receiverUrl}/" + steps.trigger.context.workflow_id + "/" + steps.trigger.context.id + "/${name}")).text(); ${extra} return ${value}; } };`,
});
const failing = () => counted("c", "steps.a.$return_value + steps.b.$return_value", `throw new Error("c is broken");`);
const fixed = () => counted("c", "steps.a.$return_value + steps.b.$return_value");

async function ended(user: User, id: string): Promise<any> {
  return waitFor(async () => {
    const run = (await api(user, "GET", `/v1/runs/${id}?expand=steps`)).body.data;
    return ["running", "suspended"].includes(run.status) ? undefined : run;
  }, 15_000, `run ${id} to end`);
}

async function failedRun(user: User): Promise<{ w: any; run: any }> {
  const created = await api(user, "POST", "/v1/workflows", { name: "retry", trigger: { type: "http" }, steps: [counted("a", "1"), counted("b", "2"), failing()] });
  assert.equal(created.status, 200, created.text);
  const w = created.body.data;
  assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
  const listed = await waitFor(async () => (await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data[0], 15_000, "the run");
  const run = await ended(user, listed.id);
  assert.equal(run.status, "failed");
  return { w, run };
}

const count = (w: any, run: any, step: string) => receiver.hits.get(`/${w.id}/${run.id}/${step}`) ?? 0;

describe("retry a run from a step", () => {
  it("from the failed step, on the fixed deployment: the steps before are not run again", async () => {
    const user = await t.newUser();
    const { w, run } = await failedRun(user);
    assert.equal((await api(user, "PUT", `/v1/workflows/${w.id}`, { steps: [counted("a", "1"), counted("b", "2"), fixed()] })).status, 200);
    const res = await api(user, "POST", `/v1/runs/${run.id}/retry`);
    assert.equal(res.status, 202, res.text);
    const retried = await ended(user, res.body.data.id);
    assert.equal(retried.status, "succeeded", JSON.stringify(retried.steps));
    assert.equal(retried.retry_of, run.id);
    assert.equal(retried.deployment_current, true);
    assert.equal(retried.steps[2].return_value, 3);
    assert.deepEqual(retried.steps.slice(0, 2).map((s: any) => s.return_value), [1, 2]);
    // a and b ran once, for the original; c ran for the retry
    assert.deepEqual([count(w, run, "a"), count(w, run, "b"), count(w, retried, "a"), count(w, retried, "b"), count(w, retried, "c")], [1, 1, 0, 0, 1]);
  });

  it("from an earlier step, and on the run's own deployment", async () => {
    const user = await t.newUser();
    const { w, run } = await failedRun(user);
    const fromB = await api(user, "POST", `/v1/runs/${run.id}/retry`, { from_step: "b" });
    assert.equal(fromB.status, 202, fromB.text);
    const second = await ended(user, fromB.body.data.id);
    assert.equal(second.status, "failed", "the original code of c still fails");
    assert.deepEqual([count(w, second, "a"), count(w, second, "b"), count(w, second, "c")], [0, 1, 1]);
    assert.equal((await api(user, "PUT", `/v1/workflows/${w.id}`, { steps: [counted("a", "1"), counted("b", "2"), fixed()] })).status, 200);
    const original = await api(user, "POST", `/v1/runs/${run.id}/retry`, { deployment: "original" });
    assert.equal(original.status, 202, original.text);
    const third = await ended(user, original.body.data.id);
    assert.equal(third.status, "failed");
    assert.equal(third.deployment_id, run.deployment_id);
  });

  it("a deployment whose earlier steps differ, a step that doesn't exist, bad bodies and another user's run", async () => {
    const user = await t.newUser();
    const { w, run } = await failedRun(user);
    assertErrorEnvelope(await api(user, "POST", `/v1/runs/${run.id}/retry`, { from_step: "nope" }), 409, "conflict");
    assert.equal((await api(user, "PUT", `/v1/workflows/${w.id}`, { steps: [counted("a2", "1"), counted("b", "2"), fixed()] })).status, 200);
    const renamed = await api(user, "POST", `/v1/runs/${run.id}/retry`);
    assertErrorEnvelope(renamed, 409, "conflict");
    assert.match(renamed.body.error.message, /"a2"|"a"/);
    assertErrorEnvelope(await api(user, "POST", `/v1/runs/${run.id}/retry`, { deployment: "newest" }), 400, "invalid_request");
    assertErrorEnvelope(await api(user, "POST", `/v1/runs/${run.id}/retry`, { from_step: 5 }), 400, "invalid_request");
    const other = await t.newUser();
    assertErrorEnvelope(await api(other, "POST", `/v1/runs/${run.id}/retry`), 404, "not_found");
    const succeeded = await (async () => {
      const created = await api(user, "POST", "/v1/workflows", { name: "ok", trigger: { type: "http" }, steps: [counted("a", "1")] });
      assert.equal((await t.request("POST", new URL(created.body.data.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
      const listed = await waitFor(async () => (await api(user, "GET", `/v1/workflows/${created.body.data.id}/runs`)).body.data[0], 15_000, "the run");
      return ended(user, listed.id);
    })();
    const nothing = await api(user, "POST", `/v1/runs/${succeeded.id}/retry`);
    assertErrorEnvelope(nothing, 409, "conflict");
    assert.match(nothing.body.error.message, /no failed step/);
  });
});
