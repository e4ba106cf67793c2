import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, createSource, startApp, waitFor, type TestApp } from "./helpers.ts";

// GET /v1/users/me/error_summaries: which sources and workflows fail, how often, and their newest
// error — what the dashboard's lists and pages show. Another user's ids read like healthy ones.

let t: TestApp;
before(async () => (t = await startApp()));
after(() => t.close());

const THROWS = `export default { run(event) { throw new TypeError("bad input " + event.n); } };`;

describe("error summaries", () => {
  it("counts a source's and a workflow's errors and names the newest; healthy and foreign ids are left out", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const failing = await createSource(t, THROWS, {}, user.key);
    const healthy = await createSource(t, `export default { run() { this.$emit({ ok: 1 }); } };`, {}, user.key);
    const foreign = await createSource(t, THROWS, {}, other.key);
    const wf = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: { name: "f", trigger: { type: "http" }, steps: [{ name: "ok" , code: "export default { async run() {} };" }, { name: "breaks", code: `export default { async run() { throw new Error("step broke"); } };` }] },
    });
    assert.equal(wf.status, 200, wf.text);
    for (const n of [1, 2]) assert.equal((await t.request("POST", `/v1/sources/${failing.id}/run`, { key: user.key, body: { event: { n } } })).status, 202);
    await t.request("POST", `/v1/sources/${healthy.id}/run`, { key: user.key });
    await t.request("POST", `/v1/sources/${foreign.id}/run`, { key: other.key, body: { event: { n: 9 } } });
    await t.request("POST", new URL(wf.body.data.trigger.endpoint_url).pathname, { key: null, body: {} });
    const ids = [failing.id, healthy.id, foreign.id, wf.body.data.id, "dc_nope"].join(",");
    const got = await waitFor(async () => {
      const res = await t.request("GET", `/v1/users/me/error_summaries?ids=${ids}`, { key: user.key });
      assert.equal(res.status, 200, res.text);
      const byId = new Map((res.body.data as any[]).map((s) => [s.id, s]));
      return byId.get(failing.id)?.count === 2 && byId.has(wf.body.data.id) ? byId : undefined;
    }, 10_000, "two source errors and a workflow error");
    assert.deepEqual([...got.keys()].sort(), [failing.id, wf.body.data.id].sort());
    const s = got.get(failing.id);
    assert.equal(s.last_error.name, "TypeError");
    assert.equal(s.last_error.message, "bad input 2");
    assert.equal(s.last_error.step, null);
    assert.ok(Math.abs(s.last_error.at_ms - Date.now()) < 60_000);
    const w = got.get(wf.body.data.id);
    assert.equal(w.count, 1);
    assert.equal(w.last_error.message, "step broke");
    assert.equal(w.last_error.step, "breaks");
    // the other user's own error is theirs to see
    const theirs = await waitFor(async () => {
      const res = await t.request("GET", `/v1/users/me/error_summaries?ids=${foreign.id},${failing.id}`, { key: other.key });
      return res.body.data.length > 0 ? res.body.data : undefined;
    }, 10_000, "the other user's error");
    assert.deepEqual(theirs.map((x: any) => x.id), [foreign.id]);
  });

  it("bad input: no ids, too many ids", async () => {
    assertErrorEnvelope(await t.request("GET", "/v1/users/me/error_summaries"), 400, "invalid_request");
    const many = Array.from({ length: 101 }, (_, i) => `dc_${i}`).join(",");
    assertErrorEnvelope(await t.request("GET", `/v1/users/me/error_summaries?ids=${many}`), 400, "invalid_request");
    const none = await t.request("GET", "/v1/users/me/error_summaries?ids=,");
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.data, []);
  });
});
