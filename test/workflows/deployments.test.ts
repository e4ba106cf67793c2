import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, startApp, waitFor, type TestApp } from "../helpers.ts";

// GET /v1/workflows/{id}/deployments/{deployment_id}: the code a run ran ("View code as it ran"),
// kept while a run names it, shown as the workflow shows its steps, saying whether it is current.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

const api = (user: User | null, method: string, path: string, body?: unknown) =>
  t.request(method, path, { key: user?.key ?? null, ...(body === undefined ? {} : { body }) });
const code = (value: string) => `export default { async run({ steps, $ }) { return ${JSON.stringify(value)}; } };`;

async function endedRun(user: User, workflowId: string): Promise<any> {
  const started = await api(user, "POST", `/v1/workflows/${workflowId}/run`, { event: {} });
  assert.equal(started.status, 202, started.text);
  return waitFor(async () => {
    const run = (await api(user, "GET", `/v1/runs/${started.body.data.run_id}`)).body.data;
    return run.status === "succeeded" ? run : undefined;
  }, 10_000, "the run to end");
}

describe("a workflow's deployments", () => {
  it("a run's deployment reads as it ran after the workflow changed; the current one says it is", async () => {
    const user = await t.newUser();
    const created = await api(user, "POST", "/v1/workflows", {
      name: "versions",
      trigger: { type: "timer", interval_seconds: 3600 },
      steps: [{ name: "first", code: code("v1") }],
      settings: { retries: 2 },
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    const run = await endedRun(user, w.id);
    assert.equal(run.deployment_id, w.deployment_id);

    const changed = await api(user, "PUT", `/v1/workflows/${w.id}`, { name: "versions", trigger: { type: "none" }, steps: [{ name: "first", code: code("v2") }, { name: "second", code: code("new") }] });
    assert.equal(changed.status, 200, changed.text);
    const now = changed.body.data;
    assert.notEqual(now.deployment_id, w.deployment_id);

    const old = await api(user, "GET", `/v1/workflows/${w.id}/deployments/${run.deployment_id}`);
    assert.equal(old.status, 200, old.text);
    assert.deepEqual(Object.keys(old.body.data).sort(), ["created_at", "current", "id", "settings", "steps", "trigger", "workflow_id"]);
    assert.equal(old.body.data.id, w.deployment_id);
    assert.equal(old.body.data.workflow_id, w.id);
    assert.equal(old.body.data.current, false);
    assert.deepEqual(old.body.data.steps, w.steps, "its steps as the workflow showed them then");
    assert.deepEqual(old.body.data.trigger, w.trigger);
    assert.deepEqual(old.body.data.settings, w.settings);
    assert.equal(old.body.data.created_at, w.updated_at);

    const current = await api(user, "GET", `/v1/workflows/${w.id}/deployments/${now.deployment_id}`);
    assert.equal(current.status, 200, current.text);
    assert.equal(current.body.data.current, true);
    assert.deepEqual(current.body.data.steps, now.steps);
    assert.deepEqual(current.body.data.trigger, { type: "none" });
  });

  it("404 for another user's workflow, an unknown deployment, one of another workflow, one no run names any more; 401 without a key", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const make = async (name: string) => {
      const res = await api(user, "POST", "/v1/workflows", { name, trigger: { type: "none" }, steps: [{ name: "s", code: code(name) }] });
      assert.equal(res.status, 200, res.text);
      return res.body.data;
    };
    const a = await make("a");
    const b = await make("b");
    const path = (w: any, d: string) => `/v1/workflows/${w.id}/deployments/${d}`;
    assert.equal((await api(user, "GET", path(a, a.deployment_id))).status, 200);

    assertErrorEnvelope(await api(other, "GET", path(a, a.deployment_id)), 404, "not_found");
    assertErrorEnvelope(await api(user, "GET", path(a, b.deployment_id)), 404, "not_found");
    assertErrorEnvelope(await api(user, "GET", path(a, "d_doesnotexist0000")), 404, "not_found");
    assertErrorEnvelope(await api(user, "GET", path(a, "not-an-id")), 404, "not_found");
    assertErrorEnvelope(await api(user, "GET", `/v1/workflows/p_doesnotexist000/deployments/${a.deployment_id}`), 404, "not_found");
    assertErrorEnvelope(await api(null, "GET", path(a, a.deployment_id)), 401, "unauthorized");

    // no run named it: two changes later it is no longer kept
    for (const v of ["a2", "a3"]) {
      const res = await api(user, "PUT", `/v1/workflows/${a.id}`, { name: "a", trigger: { type: "none" }, steps: [{ name: "s", code: code(v) }] });
      assert.equal(res.status, 200, res.text);
    }
    const gone = await api(user, "GET", path(a, a.deployment_id));
    assertErrorEnvelope(gone, 404, "not_found");
    assert.match(gone.body.error.message, /deployment/);

    const doc = (await t.request("GET", "/v1/openapi.json")).body;
    assert.ok(doc.paths["/v1/workflows/{id}/deployments/{deployment_id}"]?.get, "in the OpenAPI document");
  });
});
