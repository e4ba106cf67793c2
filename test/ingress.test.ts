import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  assertErrorEnvelope, createSource, endpointPath, eventsOf, startApp, waitEvents, HTTP_COMPONENT, type TestApp,
} from "./helpers.ts";

// HTTP sources' endpoints (docs/api.md, "HTTP endpoints"; docs/writing-components.md, "HTTP endpoints") through the real service.

const CUSTOM = `
export default {
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    if (event.query.fail) throw new Error("boom");
    this.$emit({ got: event.body });
    this.http.respond({ status: "201", headers: { "x-made-by": "component" }, body: { echo: event.body } });
  },
};`;

describe("HTTP source endpoints", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("records a JSON request, answers 200 {success:true}, and run sees the whole HTTP event", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const path = endpointPath(src);
    const res = await t.request("POST", `${path}/hooks/x?a=1&b=two`, {
      key: null,
      raw: '{"hello": "world"}',
      headers: { "content-type": "application/json", "X-Custom": "Yes" },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true });
    const [item] = await waitEvents(t, src.id, 1);
    const e = item.event;
    assert.equal(e.method, "POST");
    assert.equal(e.path, "/hooks/x");
    assert.deepEqual(e.query, { a: "1", b: "two" });
    assert.equal(e.headers["x-custom"], "Yes");
    assert.equal(e.bodyRaw, '{"hello": "world"}');
    assert.deepEqual(e.body, { hello: "world" });
    assert.match(e.url, /\/hooks\/x\?a=1&b=two$/);
    assert.equal(typeof e.client_ip, "string");
    // the event summary item (docs/api.md, "Events")
    assert.match(item.id, /^\d+-\d+$/);
    assert.equal(typeof item.indexed_at_ms, "number");
    assert.equal(item.metadata.emitter_id, src.id);
    assert.equal(item.metadata.name, "");
    assert.equal(typeof item.metadata.emit_id, "string");
    assert.equal(typeof item.metadata.ts, "number");
  });

  it("any method works; form bodies are parsed, other bodies stay raw strings", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const path = endpointPath(src);
    assert.equal((await t.request("GET", `${path}?q=1`, { key: null })).status, 200);
    assert.equal(
      (await t.request("PUT", path, { key: null, raw: "a=1&b=2", headers: { "content-type": "application/x-www-form-urlencoded" } })).status,
      200,
    );
    assert.equal((await t.request("POST", path, { key: null, raw: "plain text", headers: { "content-type": "text/plain" } })).status, 200);
    const events = (await waitEvents(t, src.id, 3)).map((i) => i.event).reverse();
    assert.equal(events[0].method, "GET");
    assert.deepEqual(events[1].body, { a: "1", b: "2" });
    assert.equal(events[2].body, "plain text");
    assert.equal(events[2].bodyRaw, "plain text");
  });

  it("a body over 512 KiB is 413; an unknown endpoint is 404", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const big = await t.request("POST", endpointPath(src), {
      key: null,
      raw: "x".repeat(512 * 1024 + 1),
      headers: { "content-type": "text/plain" },
    });
    assertErrorEnvelope(big, 413, "payload_too_large");
    assertErrorEnvelope(await t.request("POST", "/http/nope", { key: null, raw: "{}" }), 404, "not_found");
  });

  it("a disabled source's endpoint is 404 and records nothing; enabled again, it works", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const path = endpointPath(src);
    assert.equal((await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: false } })).status, 200);
    assertErrorEnvelope(await t.request("POST", path, { key: null, raw: "{}" }), 404, "not_found");
    assert.equal((await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: true } })).status, 200);
    assert.equal((await t.request("POST", path, { key: null, raw: '{"n":1}', headers: { "content-type": "application/json" } })).status, 200);
    const events = await waitEvents(t, src.id, 1);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].event.body, { n: 1 });
  });

  it("a deleted source's endpoint is 404", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    assert.equal((await t.request("DELETE", `/v1/sources/${src.id}`)).status, 200);
    assertErrorEnvelope(await t.request("POST", endpointPath(src), { key: null, raw: "{}" }), 404, "not_found");
  });

  it("customResponse: the reply is what run passed to respond(), after its events committed", async () => {
    const src = await createSource(t, CUSTOM);
    const res = await t.request("POST", endpointPath(src), {
      key: null,
      raw: '{"v":7}',
      headers: { "content-type": "application/json" },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers["x-made-by"], "component");
    assert.deepEqual(res.body, { echo: { v: 7 } });
    const events = await eventsOf(t, src.id);
    assert.deepEqual(events[0].event, { got: { v: 7 } });
  });

  it("customResponse: a run that throws before responding is a 500 envelope, and lands on $errors", async () => {
    const src = await createSource(t, CUSTOM);
    const res = await t.request("POST", `${endpointPath(src)}?fail=1`, { key: null, raw: "{}" });
    assertErrorEnvelope(res, 500, "source_failed");
    const [err] = await waitEvents(t, src.id, 1, "$errors");
    assert.equal(err.event.error.message, "boom");
    assert.equal(err.event.invocation.kind, "run");
  });
});
