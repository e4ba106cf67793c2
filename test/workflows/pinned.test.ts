import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, countingServer, startApp, waitFor, type CountingServer, type TestApp } from "../helpers.ts";

// A run executes the deployment it started on (its steps, code, props and settings) to its end,
// through waits; a PUT starts new runs on the new deployment only. Runs wait in $.flow.suspend
// while the workflow is edited, then are resumed through the API: nothing here waits on time.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
let receiver: CountingServer;
let receiverUrl = "";
/** side effects, by `<run id>/<what>` */
const effects = { get: (key: string) => receiver.hits.get(`/${key}`) };

before(async () => {
  receiver = await countingServer();
  receiverUrl = receiver.url;
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: receiver.allow });
});
after(async () => {
  await t.close();
  receiver.close();
});

/** a step that records `what` for its run, then, when `wait`, suspends the run */
const step = (name: string, what: string, wait = false) => ({
  name,
  code: `export default { async run({ steps, $ }) { await (await fetch("${receiverUrl}/" + steps.trigger.context.id + "/${what}")).text(); ${wait ? "$.flow.suspend();" : ""} return "${what}"; } };`,
});

const api = (user: User, method: string, path: string, body?: unknown) => t.request(method, path, { key: user.key, ...(body === undefined ? {} : { body }) });

async function waitingRuns(user: User, w: any, n: number): Promise<string[]> {
  for (let i = 0; i < n; i++) assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { i } })).status, 200);
  return waitFor(async () => {
    const list = (await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data as any[];
    return list.length === n && list.every((r) => r.status === "suspended") ? list.map((r) => r.id) : undefined;
  }, 15_000, `${n} runs to wait`);
}

async function resumeAndEnd(user: User, ids: string[]): Promise<any[]> {
  for (const id of ids) assert.equal((await api(user, "POST", `/v1/runs/${id}/resume`, { data: {} })).status, 200);
  return Promise.all(
    ids.map((id) =>
      waitFor(async () => {
        const run = (await api(user, "GET", `/v1/runs/${id}?expand=steps`)).body.data;
        return ["running", "suspended"].includes(run.status) ? undefined : run;
      }, 15_000, `run ${id} to end`),
    ),
  );
}

async function edited(user: User, first: unknown[], then: unknown[]): Promise<{ w: any; ids: string[]; runs: any[] }> {
  const created = await api(user, "POST", "/v1/workflows", { name: "pinned", trigger: { type: "http" }, steps: first });
  assert.equal(created.status, 200, created.text);
  const w = created.body.data;
  const ids = await waitingRuns(user, w, 3);
  const put = await api(user, "PUT", `/v1/workflows/${w.id}`, { steps: then });
  assert.equal(put.status, 200, put.text);
  assert.notEqual(put.body.data.deployment_id, w.deployment_id);
  const waiting = (await api(user, "GET", `/v1/runs/${ids[0]}`)).body.data;
  assert.equal(waiting.deployment_id, w.deployment_id);
  assert.equal(waiting.deployment_current, false);
  return { w, ids, runs: await resumeAndEnd(user, ids) };
}

describe("a run is pinned to its deployment", () => {
  it("a step put before the one that waited: the runs go on with their own steps, none run twice", async () => {
    const user = await t.newUser();
    const { w, ids, runs } = await edited(user, [step("charge", "charge", true), step("notify", "notify")], [step("validate", "validate"), step("charge", "charge2", true), step("notify", "notify2")]);
    for (const run of runs) {
      assert.equal(run.status, "succeeded", JSON.stringify(run.steps));
      assert.deepEqual(run.steps.map((s: any) => [s.name, s.status]), [["charge", "succeeded"], ["notify", "succeeded"]]);
      assert.equal(run.deployment_id, w.deployment_id);
    }
    for (const id of ids) {
      assert.equal(effects.get(`${id}/charge`), 1, "charge ran once");
      assert.equal(effects.get(`${id}/notify`), 1);
      for (const what of ["validate", "charge2", "notify2"]) assert.equal(effects.get(`${id}/${what}`), undefined, `${what} (the new deployment's) never ran`);
    }
    // a new run runs the new deployment
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
    const fresh = await waitFor(async () => {
      const list = (await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data as any[];
      const run = list.find((r) => !ids.includes(r.id) && r.status === "suspended");
      return run && (await api(user, "GET", `/v1/runs/${run.id}?expand=steps`)).body.data;
    }, 15_000, "a new run to wait");
    assert.equal(fresh.deployment_current, true);
    assert.deepEqual(fresh.steps.map((s: any) => s.name), ["validate", "charge", "notify"]);
  });

  it("a shorter workflow, and a renamed step: the old steps run to the end", async () => {
    const user = await t.newUser();
    const shorter = await edited(user, [step("a", "a", true), step("b", "b")], [step("z", "z")]);
    for (const run of shorter.runs) assert.deepEqual(run.steps.map((s: any) => [s.name, s.status]), [["a", "succeeded"], ["b", "succeeded"]]);
    for (const id of shorter.ids) assert.deepEqual([effects.get(`${id}/b`), effects.get(`${id}/z`)], [1, undefined]);
    const renamed = await edited(user, [step("a", "a", true), step("b", "b")], [step("a", "a", true), step("c", "c")]);
    for (const run of renamed.runs) assert.deepEqual(run.steps.map((s: any) => s.name), ["a", "b"]);
    for (const id of renamed.ids) assert.deepEqual([effects.get(`${id}/b`), effects.get(`${id}/c`)], [1, undefined]);
  });

  it("replay runs the current deployment, or the run's own with {deployment: original}", async () => {
    const user = await t.newUser();
    const created = await api(user, "POST", "/v1/workflows", { name: "replays", trigger: { type: "http" }, steps: [step("one", "v1")] });
    const w = created.body.data;
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
    const first = await waitFor(async () => (await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data.find((r: any) => r.status === "succeeded"), 15_000, "the first run");
    assert.equal((await api(user, "PUT", `/v1/workflows/${w.id}`, { steps: [step("one", "v2")] })).status, 200);
    const ended = (id: string) =>
      waitFor(async () => {
        const run = (await api(user, "GET", `/v1/runs/${id}?expand=steps`)).body.data;
        return run.status === "succeeded" ? run : undefined;
      }, 15_000, "the replay");
    const current = await api(user, "POST", `/v1/runs/${first.id}/replay`);
    assert.equal(current.status, 202, current.text);
    assert.equal((await ended(current.body.data.id)).steps[0].return_value, "v2");
    const original = await api(user, "POST", `/v1/runs/${first.id}/replay`, { deployment: "original" });
    assert.equal(original.status, 202, original.text);
    const replayed = await ended(original.body.data.id);
    assert.equal(replayed.steps[0].return_value, "v1");
    assert.equal(replayed.deployment_id, first.deployment_id);
    assert.equal(replayed.deployment_current, false);
    assertErrorEnvelope(await api(user, "POST", `/v1/runs/${first.id}/replay`, { deployment: "newest" }), 400, "invalid_request");
  });
});
