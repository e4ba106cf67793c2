import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, detailFields, startApp, waitFor, type TestApp } from "../helpers.ts";

// POST /v1/workflows/{id}/run with {"http": {method, path, headers, body}}: the run's
// steps.trigger.event is what a real request to the workflow's endpoint gives (docs/api.md,
// "Run an HTTP workflow now"); the raw {"event"} form still hands the event over as it is.

interface User {
  id: string;
  key: string;
}

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

async function workflow(user: User, trigger: Record<string, unknown> = { type: "http" }, code = step("return steps.trigger.event.body.name;")): Promise<any> {
  const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "run-now", steps: [{ name: "greet", code }], trigger } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** the workflow's runs once `n` of them have ended (newest first), with their whole events */
const endedRuns = (user: User, w: any, n: number) =>
  waitFor(async () => {
    const res = await t.request("GET", `/v1/workflows/${w.id}/runs?expand=event`, { key: user.key });
    const runs = res.body.data as any[];
    return runs.length >= n && runs.every((r) => r.status !== "running" && r.status !== "suspended") ? runs : undefined;
  }, 10_000, `${n} ended runs`);

const runNow = (user: User, id: string, body: unknown) => t.request("POST", `/v1/workflows/${id}/run`, { key: user.key, body });

describe("run now with the http form", () => {
  it("the steps get the request as a real one to the endpoint gives it", async () => {
    const user = await t.newUser();
    const w = await workflow(user);
    const res = await runNow(user, w.id, { http: { method: "put", path: "/hook?x=1&x=2", headers: { "X-Token": "abc" }, body: { name: "ada" } } });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body.data).sort(), ["accepted", "run_id"]);
    const [run] = await endedRuns(user, w, 1);
    assert.equal(run.id, res.body.data.run_id, "the run answered is the run that ran");
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    // no request started it: nothing was answered
    assert.equal(run.started_by, "run_now");
    assert.equal(run.response, null);
    const ev = run.trigger_event;
    assert.equal(ev.method, "PUT");
    assert.equal(ev.path, "/hook");
    assert.deepEqual(ev.query, { x: ["1", "2"] });
    assert.equal(ev.headers["x-token"], "abc");
    assert.equal(ev.headers["content-type"], "application/json");
    assert.equal(ev.headers.host, new URL(w.trigger.endpoint_url).host);
    assert.deepEqual(ev.body, { name: "ada" });
    assert.equal(ev.bodyRaw, '{"name":"ada"}');
    assert.equal(ev.url, `${w.trigger.endpoint_url}/hook?x=1&x=2`);
    assert.equal(typeof ev.client_ip, "string");
    const full = await t.request("GET", `/v1/runs/${run.id}`, { key: user.key });
    assert.equal(full.body.data.steps[0].return_value, "ada");

    // a real request: the same fields
    const real = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { name: "bob" } });
    assert.equal(real.status, 200, real.text);
    const [realRun] = await endedRuns(user, w, 2);
    assert.deepEqual(Object.keys(realRun.trigger_event).sort(), Object.keys(ev).sort());
    assert.equal(realRun.started_by, "request");
    assert.deepEqual(realRun.response, { status: 200 });

    // a replay and a retry of the run-now run are not requests either
    const replay = await t.request("POST", `/v1/runs/${run.id}/replay`, { key: user.key });
    assert.equal(replay.status, 202, replay.text);
    const retry = await t.request("POST", `/v1/runs/${run.id}/retry`, { key: user.key, body: { from_step: "greet" } });
    assert.equal(retry.status, 202, retry.text);
    for (const [id, how] of [[replay.body.data.id, "replay"], [retry.body.data.id, "retry"]]) {
      const again = await waitFor(async () => {
        const r = (await t.request("GET", `/v1/runs/${id}`, { key: user.key })).body.data;
        return r.status === "succeeded" ? r : undefined;
      }, 10_000, `the ${how} to end`);
      assert.equal(again.started_by, how);
      assert.equal(again.response, null);
    }
  });

  it("a custom_response workflow run now: what its step passes to $.respond answers nobody, and the run says so", async () => {
    const user = await t.newUser();
    const w = await workflow(user, { type: "http", custom_response: true }, step("await $.respond({ status: 201, body: 'made' }); return 1;"));
    const res = await runNow(user, w.id, { http: { body: { name: "ada" } } });
    assert.equal(res.status, 202, res.text);
    const [run] = await endedRuns(user, w, 1);
    assert.equal(run.id, res.body.data.run_id);
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    assert.equal(run.started_by, "run_now");
    assert.equal(run.response, null);
    // a real request to it is answered by the step, and the run shows that reply
    const real = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    assert.equal(real.status, 201, real.text);
    const [realRun] = await endedRuns(user, w, 2);
    assert.equal(realRun.started_by, "request");
    assert.deepEqual(realRun.response, { status: 201 });
  });

  it("defaults: POST to /, a string body sent as it is (parsed by its content-type)", async () => {
    const user = await t.newUser();
    const w = await workflow(user, { type: "http" }, step("return steps.trigger.event.body;"));
    assert.equal((await runNow(user, w.id, { http: { body: "plain words" } })).status, 202);
    assert.equal((await runNow(user, w.id, { http: { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1&b=2" } })).status, 202);
    const runs = await endedRuns(user, w, 2);
    const events = runs.map((r) => r.trigger_event).reverse();
    assert.equal(events[0].method, "POST");
    assert.equal(events[0].path, "/");
    assert.equal(events[0].body, "plain words");
    assert.equal(events[0].headers["content-type"], undefined);
    assert.deepEqual(events[1].body, { a: "1", b: "2" });
  });

  it("the raw event form hands the event over as it is", async () => {
    const user = await t.newUser();
    const w = await workflow(user, { type: "http" }, step("return steps.trigger.event;"));
    assert.equal((await runNow(user, w.id, { event: { raw: true } })).status, 202);
    const [run] = await endedRuns(user, w, 1);
    assert.deepEqual(run.trigger_event, { raw: true });
  });

  it("bad http forms are 400s naming the field; another user's workflow is a 404; a body over the endpoint's limit a 413", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const w = await workflow(user);
    const cases: Array<[unknown, string]> = [
      ["GET /", "http"],
      [{ method: "FETCH" }, "http.method"],
      [{ method: 7 }, "http.method"],
      [{ path: "hook" }, "http.path"],
      [{ path: 3 }, "http.path"],
      [{ headers: ["a"] }, "http.headers"],
      [{ headers: { "x-n": 1 } }, "http.headers.x-n"],
      [{ headers: { "bad name": "v" } }, "http.headers.bad name"],
      [{ verb: "POST" }, "http.verb"],
    ];
    for (const [http, field] of cases) {
      const res = await runNow(user, w.id, { http });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).includes(field), `${JSON.stringify(http)}: ${res.text}`);
      assert.match(res.body.error.message, new RegExp(field.replace(/[.]/g, "\\.")));
    }
    assertErrorEnvelope(await runNow(user, w.id, { event: 1, http: {} }), 400, "invalid_request");
    const none = await workflow(user, { type: "none" });
    const wrong = await runNow(user, none.id, { http: {} });
    assertErrorEnvelope(wrong, 400, "invalid_request");
    assert.match(wrong.body.error.message, /HTTP-triggered/);
    assertErrorEnvelope(await runNow(other, w.id, { http: { body: {} } }), 404, "not_found");
    assertErrorEnvelope(await runNow(user, "p_doesnotexist000", { http: {} }), 404, "not_found");
    const big = await runNow(user, w.id, { http: { body: "x".repeat(600 * 1024) } });
    assertErrorEnvelope(big, 413, "payload_too_large");
    assert.match(big.body.error.message, /524288 bytes/);
    const res = await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key });
    assert.deepEqual(res.body.data, [], "nothing ran");
  });
});
