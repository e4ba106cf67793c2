import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, countingServer, startApp, waitFor, type CountingServer, type TestApp } from "../helpers.ts";

// Testing a step on a past run: the saved step or a draft runs once with `steps` as that run had
// them, and nothing is committed: no run recorded, the data store and a local receiver untouched
// ($.send reported, not sent), the workflow's runs unchanged.

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

describe("test a step on a past run", () => {
  it("runs the saved step or a draft with the run's steps; commits nothing", async () => {
    const user = await t.newUser();
    const ds = (await api(user, "POST", "/v1/data_stores", { name: "s" })).body.data.id;
    const created = await api(user, "POST", "/v1/workflows", {
      name: "tested",
      trigger: { type: "http" },
      steps: [
        { name: "first", code: `export default { async run({ steps }) { return steps.trigger.event.body.n * 2; } };` },
        {
          name: "second",
          code: `export default defineComponent({ props: { store: { type: "data_store" } }, async run({ steps, $ }) { if (steps.trigger.event.body.n > 0) throw new Error("broken"); return 0; } });`,
          props: { store: { dataStoreId: ds } },
        },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { n: 21 } })).status, 200);
    const run = await waitFor(async () => {
      const r = (await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data[0];
      return r && r.status === "failed" ? r : undefined;
    }, 15_000, "the run to fail");

    const saved = await api(user, "POST", `/v1/workflows/${w.id}/steps/second/test`, { run_id: run.id });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.data.error.message, "broken");

    const draft = `export default defineComponent({ props: { store: { type: "data_store" } }, async run({ steps, $ }) {
      console.log("seen", steps.first.$return_value);
      await this.store.set("k", 1);
      const before = await this.store.get("k");
      $.send.http({ method: "POST", url: "${receiverUrl}/hook", data: { n: 1 } });
      $.export("doubled", steps.first.$return_value);
      return { n: steps.trigger.event.body.n, before };
    } });`;
    const res = await api(user, "POST", `/v1/workflows/${w.id}/steps/second/test`, { run_id: run.id, code: draft });
    assert.equal(res.status, 200, res.text);
    const out = res.body.data;
    assert.equal(out.error, undefined, JSON.stringify(out.error));
    assert.deepEqual(out.return_value, { n: 21, before: 1 });
    assert.deepEqual(out.exports, { doubled: 42 });
    assert.match(JSON.stringify(out.logs), /seen 42/);
    assert.equal(out.sends.length, 1);
    assert.equal(out.sends[0].kind, "http");
    assert.deepEqual(out.data_store_writes, [{ store: ds, operations: 1 }]);
    assert.equal(typeof out.duration_ms, "number");

    // nothing happened: no run, no record in the store, nothing received, the saved code unchanged
    assert.equal((await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data.length, 1);
    assert.deepEqual((await api(user, "GET", `/v1/data_stores/${ds}/records`)).body.data, []);
    assert.equal(receiver.hits.size, 0);
    assert.match((await api(user, "GET", `/v1/workflows/${w.id}`)).body.data.steps[1].code, /broken/);
  });

  it("bad inputs: an unknown step, another user's run or workflow, a run of another workflow, bad code", async () => {
    const user = await t.newUser();
    const mk = async (name: string) => {
      const c = await api(user, "POST", "/v1/workflows", { name, trigger: { type: "http" }, steps: [{ name: "s", code: `export default { async run() { return 1; } };` }] });
      const w = c.body.data;
      assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
      const run = await waitFor(async () => (await api(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data[0], 15_000, "a run");
      return { w, run };
    };
    const a = await mk("a");
    const b = await mk("b");
    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${a.w.id}/steps/nope/test`, { run_id: a.run.id }), 404, "not_found");
    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${a.w.id}/steps/s/test`, { run_id: b.run.id }), 404, "not_found");
    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${a.w.id}/steps/s/test`, {}), 400, "invalid_request");
    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${a.w.id}/steps/s/test`, { run_id: a.run.id, code: "export default {" }), 422, "invalid_component");
    const other = await t.newUser();
    assertErrorEnvelope(await api(other, "POST", `/v1/workflows/${a.w.id}/steps/s/test`, { run_id: a.run.id }), 404, "not_found");
  });
});
