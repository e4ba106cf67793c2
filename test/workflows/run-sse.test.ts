import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, detailFields, startApp, waitFor, type TestApp } from "../helpers.ts";
import { connect } from "../sse-client.ts";

// POST /v1/workflows/{id}/run and GET /workflows/{id}/sse, as their source counterparts.

interface User {
  id: string;
  key: string;
}

/** emits the trigger's event as the raw event, and logs `log` (on $logs) when the event has one */
const ECHO = `export default { async run({ steps, $ }) { $.send.emit({ raw_event: steps.trigger.event }); if (steps.trigger.event && steps.trigger.event.log) console.log("logged " + steps.trigger.event.log); } };`;


describe("workflow run and SSE", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp();
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.http.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  });
  after(() => t.close());

  // one run at a time: these tests read the runs' events in the order they were started, which
  // runs side by side (the default) don't promise
  async function workflow(user: User, trigger: Record<string, unknown> = { type: "none" }, code = ECHO) {
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "wf", trigger, steps: [{ name: "echo", code }], settings: { concurrency: 1 } } });
    assert.equal(res.status, 200, res.text);
    return res.body.data as { id: string };
  }

  async function items(user: User, id: string, eventName = "") {
    const q = `expand=event&limit=100${eventName ? `&event_name=${encodeURIComponent(eventName)}` : ""}`;
    const res = await t.request("GET", `/v1/workflows/${id}/event_summaries?${q}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body.data as any[];
  }

  const waitItems = (user: User, id: string, n: number, eventName = "") =>
    waitFor(async () => {
      const list = await items(user, id, eventName);
      return list.length >= n ? list : undefined;
    }, 10_000, `${n} items of ${id}`);

  const runIt = (user: User, id: string, event: unknown) =>
    t.request("POST", `/v1/workflows/${id}/run`, { key: user.key, body: { event } });

  it("POST /workflows/{id}/run: 202 {accepted: true, run_id}; the steps get the event as steps.trigger.event", async () => {
    const user = await t.newUser();
    const w = await workflow(user);
    const res = await runIt(user, w.id, { n: 1, nested: { ok: true } });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body.data).sort(), ["accepted", "run_id"]);
    assert.equal(res.body.data.accepted, true);
    assert.match(res.body.data.run_id, /^r_/);
    const second = await runIt(user, w.id, { n: 2 });
    const list = await waitItems(user, w.id, 2);
    assert.deepEqual(list.map((i) => i.event.raw_event).reverse(), [{ n: 1, nested: { ok: true } }, { n: 2 }]);
    for (const i of list) assert.equal(i.metadata.emitter_id, w.id);
    // the ids answered are the runs that ran, each with its own event
    for (const [answer, n] of [[res, 1], [second, 2]] as const) {
      const run = await t.request("GET", `/v1/runs/${answer.body.data.run_id}?expand=event`, { key: user.key });
      assert.equal(run.status, 200, run.text);
      assert.equal(run.body.data.trigger_event.n, n);
      assert.equal(run.body.data.started_by, "run_now");
    }

    // no body at all: a run with no event
    const bare = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key });
    assert.equal(bare.status, 202, bare.text);
    const empty = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key, body: {} });
    assert.equal(empty.status, 202, empty.text);
    const errors = await items(user, w.id, "$errors");
    assert.deepEqual(errors, []);
  });

  it("a run is in the store (its run's row) before its 202, until it ends; a disabled workflow's run is refused", async () => {
    const user = await t.newUser();
    // a step that takes a while: the run is live while it runs
    const slow = `export default { async run({ steps, $ }) { await new Promise((r) => setTimeout(r, 1500)); $.send.emit({ raw_event: steps.trigger.event }); } };`;
    const w = await workflow(user, { type: "none" }, slow);
    const run = await runIt(user, w.id, { kept: true });
    assert.equal(run.status, 202, run.text);
    const row = await t.app.store.runs.byId(run.body.data.run_id);
    assert.ok(row && (row.status === "running" || row.status === "suspended"), `live at the answer: ${row?.status}`);
    assert.deepEqual(JSON.parse(row.trigger_event), { kept: true });
    const [item] = await waitItems(user, w.id, 1);
    assert.deepEqual(item.event.raw_event, { kept: true });
    await waitFor(async () => (await t.app.store.runs.byId(run.body.data.run_id))?.status === "succeeded", 10_000, "the run to end");

    // disabled: run-now says so (409) instead of accepting a run nothing would run
    const res = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: { name: "off", active: false, trigger: { type: "none" }, steps: [{ name: "echo", code: ECHO }] },
    });
    assert.equal(res.status, 200, res.text);
    const off = await runIt(user, res.body.data.id, { kept: true });
    assertErrorEnvelope(off, 409, "conflict");
    assert.match(off.body.error.message, /disabled/);
    assert.equal((await t.request("GET", `/v1/workflows/${res.body.data.id}/runs`, { key: user.key })).body.data.length, 0);
  });

  it("a timer workflow run without an event gets a timer event", async () => {
    const user = await t.newUser();
    const w = await workflow(user, { type: "timer", interval_seconds: 3600 });
    const res = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key });
    assert.equal(res.status, 202, res.text);
    const [item] = await waitItems(user, w.id, 1);
    assert.equal(item.event.raw_event.interval_seconds, 3600);
    assert.ok(Number.isInteger(item.event.raw_event.timestamp), JSON.stringify(item.event));
  });

  it("run: bad bodies are 400 with details, others' and unknown ids 404, no key 401", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const w = await workflow(user);
    for (const raw of ["[1]", '"x"', "7", "null"]) {
      const res = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key, raw, headers: { "content-type": "application/json" } });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).length > 0, res.text);
    }
    const broken = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key, raw: "{nope", headers: { "content-type": "application/json" } });
    assertErrorEnvelope(broken, 400, "invalid_request");
    assertErrorEnvelope(await runIt(other, w.id, { n: 1 }), 404, "not_found");
    assertErrorEnvelope(await runIt(user, "p_doesnotexist000", { n: 1 }), 404, "not_found");
    assertErrorEnvelope(await runIt(user, "dc_doesnotexist00", { n: 1 }), 404, "not_found");
    assertErrorEnvelope(await t.request("POST", `/v1/workflows/${w.id}/run`, { key: null, body: { event: 1 } }), 401, "unauthorized");
    assert.deepEqual(await items(user, w.id), [], "nothing ran");
    const doc = (await t.request("GET", "/v1/openapi.json")).body;
    assert.ok(doc.paths["/v1/workflows/{id}/run"]?.post, "in the OpenAPI document");
  });

  it("GET /workflows/{id}/sse streams the workflow's events after the handshake, with the source stream's headers", async () => {
    const user = await t.newUser();
    const w = await workflow(user);
    const c = await connect(`${base}/workflows/${w.id}/sse`, { authorization: `Bearer ${user.key}` });
    try {
      assert.equal(c.status, 200);
      assert.match(c.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(c.headers.get("cache-control"), "no-store");
      assert.equal(c.headers.get("x-accel-buffering"), "no");
      await waitFor(async () => c.text().startsWith(":sse-handshake\n\n"), 5000, "handshake");
      await runIt(user, w.id, { n: 1 });
      await runIt(user, w.id, { n: 2 });
      await waitFor(async () => c.messages().length === 2, 10_000, "2 messages");
      const msgs = c.messages();
      assert.deepEqual(msgs.map((m) => m.data.event.raw_event), [{ n: 1 }, { n: 2 }]);
      assert.deepEqual(msgs.map((m) => m.id), msgs.map((m) => m.data.id));
      assert.equal(msgs[0].data.metadata.emitter_id, w.id);
    } finally {
      c.close();
    }
  });

  it("?access_token= and ?event_name= work; Last-Event-ID replays then goes live without duplicates", async () => {
    const user = await t.newUser();
    const w = await workflow(user);
    const logs = await connect(`${base}/workflows/${w.id}/sse?event_name=%24logs&access_token=${user.key}`);
    try {
      assert.equal(logs.status, 200);
      await waitFor(async () => logs.text().includes(":sse-handshake"), 5000, "handshake");
      await runIt(user, w.id, { n: 1, log: "marker-1" });
      await runIt(user, w.id, { n: 2 });
      await runIt(user, w.id, { n: 3 });
      await waitItems(user, w.id, 3);
      await waitFor(async () => logs.messages().length === 1, 10_000, "a $logs message");
      assert.match(JSON.stringify(logs.messages()[0].data), /logged marker-1/);
      assert.equal(logs.messages()[0].data.metadata.name, "$logs");
    } finally {
      logs.close();
    }
    const events = (await waitItems(user, w.id, 3)).reverse();
    const c = await connect(`${base}/workflows/${w.id}/sse`, { authorization: `Bearer ${user.key}`, "last-event-id": events[0].id });
    try {
      await waitFor(async () => c.messages().length === 2, 10_000, "replay");
      await runIt(user, w.id, { n: 4 });
      await waitFor(async () => c.messages().length === 3, 10_000, "live message");
      assert.deepEqual(c.messages().map((m) => m.data.event.raw_event.n), [2, 3, 4]);
    } finally {
      c.close();
    }
  });

  it("SSE: 401 without a key, 404 for another user's or an unknown workflow; deleting the workflow ends it", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const w = await workflow(user);
    const anon = await fetch(`${base}/workflows/${w.id}/sse`);
    assert.equal(anon.status, 401);
    assert.equal(((await anon.json()) as any).error.code, "unauthorized");
    const bad = await fetch(`${base}/workflows/${w.id}/sse?access_token=nope`);
    assert.equal(bad.status, 401);
    await bad.body?.cancel();
    for (const [id, key] of [[w.id, other.key], ["p_doesnotexist000", user.key]]) {
      const res = await fetch(`${base}/workflows/${id}/sse`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as any).error.code, "not_found");
    }
    // a source id is not a workflow
    const src = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_code: "export default { run() {} }" } });
    const notWf = await fetch(`${base}/workflows/${src.body.data.id}/sse`, { headers: { authorization: `Bearer ${user.key}` } });
    assert.equal(notWf.status, 404);
    await notWf.body?.cancel();
    const c = await connect(`${base}/workflows/${w.id}/sse`, { authorization: `Bearer ${user.key}` });
    await waitFor(async () => c.text().includes(":sse-handshake"), 5000, "handshake");
    assert.equal((await t.request("DELETE", `/v1/workflows/${w.id}`, { key: user.key })).status, 200);
    await Promise.race([c.ended, new Promise((_, rej) => setTimeout(() => rej(new Error("stream did not end")), 5000))]);
  });
});
