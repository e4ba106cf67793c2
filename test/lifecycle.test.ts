import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, createSource, eventsOf, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// Hooks (docs/writing-components.md, "Hooks and the lifecycle"): create = deploy + activate, update = deactivate/swap/activate,
// disable = deactivate, enable = activate, delete = deactivate; a failing hook is 422 hook_failed.

const HOOKS = (tag: string, failOn = "") => `
export default {
  props: { db: "$.service.db", fail: { type: "string", optional: true } },
  hooks: {
    async deploy() { this.db.set("deployed", "${tag}"); this.$emit({ hook: "deploy", tag: "${tag}" }); },
    async activate() {
      if ("${failOn}" === "activate" || this.fail === "activate") throw new Error("activate refused");
      this.$emit({ hook: "activate", tag: "${tag}" });
    },
    async deactivate() { this.$emit({ hook: "deactivate", tag: "${tag}" }); },
  },
  run() { this.$emit({ run: true, deployed: this.db.get("deployed"), tag: "${tag}" }); },
};`;

describe("hooks", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const hooks = async (id: string) => (await eventsOf(t, id)).filter((i) => i.event.hook).map((i) => `${i.event.hook}:${i.event.tag}`).reverse();

  it("create runs deploy then activate; their emits and db writes are kept", async () => {
    const src = await createSource(t, HOOKS("v1"));
    assert.deepEqual(await hooks(src.id), ["deploy:v1", "activate:v1"]);
    await t.request("POST", `/v1/sources/${src.id}/run`, { body: {} });
    const [ran] = await waitEvents(t, src.id, 3);
    assert.deepEqual(ran.event, { run: true, deployed: "v1", tag: "v1" });
  });

  it("a create whose hook throws is 422 hook_failed and leaves no source", async () => {
    const before = (await t.request("GET", "/v1/users/me/sources/?limit=100")).body.page_info.total_count;
    const res = await t.request("POST", "/v1/sources/", { body: { component_code: HOOKS("bad", "activate") } });
    assertErrorEnvelope(res, 422, "hook_failed");
    assert.match(res.body.error.message, /activate refused/);
    const after = (await t.request("GET", "/v1/users/me/sources/?limit=100")).body.page_info.total_count;
    assert.equal(after, before);
  });

  it("update swaps code between deactivate and activate, keeping db state", async () => {
    const src = await createSource(t, HOOKS("v1"));
    const res = await t.request("PUT", `/v1/sources/${src.id}`, { body: { component_code: HOOKS("v2") } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await hooks(src.id), ["deploy:v1", "activate:v1", "deactivate:v1", "activate:v2"]);
    await t.request("POST", `/v1/sources/${src.id}/run`, { body: {} });
    const [ran] = await waitEvents(t, src.id, 5);
    assert.deepEqual(ran.event, { run: true, deployed: "v1", tag: "v2" });
  });

  it("an update whose activate throws is 422 and keeps the previous version", async () => {
    const src = await createSource(t, HOOKS("v1"));
    const res = await t.request("PUT", `/v1/sources/${src.id}`, { body: { configured_props: { fail: "activate" } } });
    assertErrorEnvelope(res, 422, "hook_failed");
    const got = await t.request("GET", `/v1/sources/${src.id}`);
    assert.equal(got.body.data.configured_props.fail, undefined);
    // the old version was re-activated and still runs
    await t.request("POST", `/v1/sources/${src.id}/run`, { body: {} });
    const ran = await waitFor(async () => (await eventsOf(t, src.id)).find((i) => i.event.run), 5000, "a run");
    assert.equal(ran.event.tag, "v1");
    assert.deepEqual((await hooks(src.id)).slice(-2), ["deactivate:v1", "activate:v1"]);
  });

  it("disable runs deactivate, enable runs activate", async () => {
    const src = await createSource(t, HOOKS("v1"));
    await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: false } });
    await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: true } });
    assert.deepEqual(await hooks(src.id), ["deploy:v1", "activate:v1", "deactivate:v1", "activate:v1"]);
  });

  it("delete runs deactivate and removes the events", async () => {
    const src = await createSource(t, HOOKS("v1"));
    assert.equal((await t.request("DELETE", `/v1/sources/${src.id}`)).status, 200);
    assertErrorEnvelope(await t.request("GET", `/v1/sources/${src.id}/event_summaries`), 404, "not_found");
  });
});
