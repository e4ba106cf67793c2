import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { HTTP_COMPONENT, createSource, endpointPath, eventsOf, restart, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// Subscriptions deliver (docs/api.md, "Subscriptions"): emitters' events reach their listeners in order, at
// least once, across restarts, through chains, globs and auto-subscriptions, up to 8 hops.

// Emits what POST /run hands it: {emits: [event, ...]}
const EMITTER = `export default { run(event) { for (const e of event.emits) this.$emit(e); } };`;
// Re-emits every delivered event, tagged with who passed it on
const RELAY = `export default { name: "relay", run(event) { this.$emit({ via: "relay", got: event }); } };`;

async function run(t: TestApp, id: string, ...emits: unknown[]) {
  await runAs(t, undefined, id, ...emits);
}

async function runAs(t: TestApp, key: string | undefined, id: string, ...emits: unknown[]) {
  const res = await t.request("POST", `/v1/sources/${id}/run`, { key, body: { event: { emits } } });
  assert.equal(res.status, 202, res.text);
}

async function subscribe(t: TestApp, emitter: string, listener: string, eventName?: string, key?: string) {
  const q = `emitter_id=${emitter}&listener_id=${listener}${eventName !== undefined ? `&event_name=${encodeURIComponent(eventName)}` : ""}`;
  const res = await t.request("POST", `/v1/subscriptions?${q}`, { key });
  assert.equal(res.status, 200, res.text);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("delivery", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("a subscribed source's run gets each emitted event, in emit order", async () => {
    const a = await createSource(t, EMITTER);
    const b = await createSource(t, RELAY);
    await subscribe(t, a.id, b.id);
    await run(t, a.id, { n: 1 }, { n: 2 });
    await run(t, a.id, { n: 3 });
    const got = await waitEvents(t, b.id, 3);
    assert.deepEqual(got.map((e) => e.event.got.n).reverse(), [1, 2, 3]);
    assert.equal(got[0].metadata.emitter_id, b.id);
  });

  it("a chain source → source → workflow delivers end to end", async () => {
    const a = await createSource(t, EMITTER);
    const b = await createSource(t, RELAY);
    const wf = await t.request("POST", "/v1/workflows", {
      body: {
        name: "chain end",
        steps: [
          { name: "first", code: `export default { async run({ steps }) { return steps.trigger.event.got.n * 10; } };` },
          { name: "second", code: `export default { async run({ steps, $ }) { $.send.emit({ raw_event: { tenfold: steps.first.$return_value, via: steps.trigger.event.via } }); } };` },
        ],
      },
    });
    assert.equal(wf.status, 200, wf.text);
    const p = wf.body.data.id;
    await subscribe(t, a.id, b.id);
    await subscribe(t, b.id, p);
    await run(t, a.id, { n: 4 });
    const res = await waitFor(async () => {
      const r = await t.request("GET", `/v1/workflows/${p}/event_summaries?expand=event`);
      return r.body.data.length > 0 ? r.body.data : undefined;
    }, 10_000, "the workflow's emit");
    assert.deepEqual(res[0].event, { raw_event: { tenfold: 40, via: "relay" } });
    assert.equal(res[0].metadata.emitter_id, p);
  });

  it("a listener of a workflow receives the raw_event value", async () => {
    const wf = await t.request("POST", "/v1/workflows", {
      body: {
        name: "emitting workflow",
        trigger: { type: "http" },
        steps: [{ name: "emit", code: `export default { async run({ steps, $ }) { $.send.emit({ raw_event: { hello: steps.trigger.event.body.who } }); } };` }],
      },
    });
    assert.equal(wf.status, 200, wf.text);
    const b = await createSource(t, RELAY);
    await subscribe(t, wf.body.data.id, b.id);
    const path = new URL(wf.body.data.trigger.endpoint_url).pathname;
    const posted = await t.request("POST", path, { body: { who: "world" }, key: null });
    assert.equal(posted.status, 200, posted.text);
    const got = await waitEvents(t, b.id, 1);
    assert.deepEqual(got[0].event.got, { hello: "world" });
  });

  it("a glob subscription catches emitters created after it, but never the listener itself", async () => {
    const u = await t.newUser();
    const listener = await createSource(t, RELAY, {}, u.key);
    await subscribe(t, "dc_*", listener.id, undefined, u.key);
    const later = await createSource(t, EMITTER, {}, u.key);
    await runAs(t, u.key, later.id, { late: true });
    const got = await waitEvents(t, listener.id, 1, "", 10_000, u.key);
    assert.deepEqual(got[0].event.got, { late: true });
    await sleep(500);
    // the relay's own emit matched dc_* too, but a glob doesn't feed a listener its own events
    assert.equal((await eventsOf(t, listener.id, "", u.key)).length, 1);
    // another user's sources are not matched by this user's glob
    const other = await createSource(t, EMITTER);
    await run(t, other.id, { foreign: true });
    await sleep(500);
    assert.equal((await eventsOf(t, listener.id, "", u.key)).length, 1);
  });

  it("an auto-subscription to $errors delivers the errors of sources created afterwards", async () => {
    const u = await t.newUser();
    const listener = await createSource(t, RELAY, {}, u.key);
    const auto = await t.request("POST", `/v1/auto_subscriptions?event_name=$errors&listener_id=${listener.id}`, { key: u.key });
    assert.equal(auto.status, 200, auto.text);
    const failing = await createSource(t, `export default { run() { throw new TypeError("boom"); } };`, {}, u.key);
    const res = await t.request("POST", `/v1/sources/${failing.id}/run`, { key: u.key, body: {} });
    assert.equal(res.status, 202);
    const got = await waitEvents(t, listener.id, 1, "", 10_000, u.key);
    assert.equal(got[0].event.got.error.name, "TypeError");
    assert.equal(got[0].event.got.error.message, "boom");
    assert.equal(got[0].event.got.invocation.kind, "run");
  });

  it("deleting the subscription or the listener stops delivery", async () => {
    const a = await createSource(t, EMITTER);
    const b = await createSource(t, RELAY);
    const c = await createSource(t, RELAY);
    await subscribe(t, a.id, b.id);
    await subscribe(t, a.id, c.id);
    await run(t, a.id, { n: 1 });
    await waitEvents(t, b.id, 1);
    await waitEvents(t, c.id, 1);
    const del = await t.request("DELETE", `/v1/subscriptions?emitter_id=${a.id}&listener_id=${b.id}`);
    assert.deepEqual(del.body, { data: { deleted: 1 } });
    assert.equal((await t.request("DELETE", `/v1/sources/${c.id}`)).status, 200);
    await run(t, a.id, { n: 2 });
    await waitEvents(t, a.id, 2);
    await sleep(700);
    assert.equal((await eventsOf(t, b.id)).length, 1);
    assert.equal((await t.request("GET", `/v1/sources/${c.id}/event_summaries`)).status, 404);
  });

  it("a listener run that throws lands on the listener's $errors and is not retried", async () => {
    const a = await createSource(t, EMITTER);
    const bad = await createSource(t, `export default { run(event) { throw new Error("cannot take " + event.n); } };`);
    await subscribe(t, a.id, bad.id);
    await run(t, a.id, { n: 7 });
    const errors = await waitEvents(t, bad.id, 1, "$errors");
    assert.equal(errors[0].event.error.message, "cannot take 7");
    await sleep(700);
    assert.equal((await eventsOf(t, bad.id, "$errors")).length, 1);
  });

  it("a chain deeper than 8 hops is dropped and recorded on the emitter's $errors", async () => {
    // a source subscribed to itself re-emits each delivery: a loop only the hop limit ends
    const loop = await createSource(t, `export default { run(event) { this.$emit({ depth: (event.depth || 0) + 1 }); } };`);
    await subscribe(t, loop.id, loop.id);
    const res = await t.request("POST", `/v1/sources/${loop.id}/run`, { body: { event: { depth: 0 } } });
    assert.equal(res.status, 202);
    const errors = await waitEvents(t, loop.id, 1, "$errors");
    assert.equal(errors[0].event.error.name, "HopLimitExceeded");
    await sleep(500);
    const events = await eventsOf(t, loop.id);
    // the run started by hand, then one per hop: 1 + 8
    assert.equal(events.length, 9);
    assert.equal(events[0].event.depth, 9);
    assert.equal((await eventsOf(t, loop.id, "$errors")).length, 1);
  });
});

describe("delivery across a restart", () => {
  it("a backlog interrupted by a stop is delivered in full after the restart", async () => {
    const first = await startApp();
    let second: TestApp | undefined;
    try {
      const a = await createSource(first, EMITTER);
      // a slow listener: the backlog is still queued when the service stops
      const slow = await createSource(first, `export default { async run(event) { await new Promise((r) => setTimeout(r, 40)); this.$emit(event); } };`);
      await subscribe(first, a.id, slow.id);
      const total = 40;
      await run(first, a.id, ...Array.from({ length: total }, (_, i) => ({ i })));
      await waitEvents(first, a.id, total);
      await waitEvents(first, slow.id, 1);
      const before = (await eventsOf(first, slow.id)).length;
      await first.app.close();
      second = await restart(first);
      const got = await waitEvents(second, slow.id, total, "", 20_000);
      const seen = new Set(got.map((e) => e.event.i));
      assert.equal(seen.size, total, "every event arrived");
      assert.ok(before < total);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});

describe("quotas reserved when a run is accepted", () => {
  it("a burst of requests past the daily quota: exactly the quota accepted, the rest 429, as many runs stored", async () => {
    const t = await startApp({ TRIBUTARY_DAILY_INVOCATIONS_QUOTA: "10" });
    try {
      const u = await t.newUser();
      const src = await createSource(t, HTTP_COMPONENT, {}, u.key);
      const path = endpointPath(src);
      // all at once: accepted requests wait in the inbox, not yet run, while the others arrive
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => t.request("POST", path, { key: null, body: { i } }).then((r) => r.status)));
      assert.equal(statuses.filter((s) => s === 200).length, 10, `statuses: ${statuses.join(",")}`);
      assert.equal(statuses.filter((s) => s === 429).length, 20);
      await waitEvents(t, src.id, 10, "", 10_000, u.key);
      // run-now and timers are refused too, and nothing more is stored
      assert.equal((await t.request("POST", `/v1/sources/${src.id}/run`, { key: u.key })).status, 429);
      const events = await eventsOf(t, src.id, "", u.key);
      assert.equal(events.length, 10);
      const me = await t.request("GET", "/v1/users/me", { key: u.key });
      assert.equal(me.body.data.daily_invocations_used, 10);
    } finally {
      await t.close();
    }
  });
});

describe("delivery and quotas", () => {
  it("deliveries to a listener over its daily quota wait instead of running, and the refusal is recorded", async () => {
    const t = await startApp({ TRIBUTARY_DAILY_INVOCATIONS_QUOTA: "3" });
    try {
      const u = await t.newUser();
      const a = await createSource(t, EMITTER, {}, u.key);
      const b = await createSource(t, RELAY, {}, u.key);
      await subscribe(t, a.id, b.id, undefined, u.key);
      // 1 run of a + 2 deliveries to b use the quota of 3; the third delivery has to wait
      await runAs(t, u.key, a.id, { n: 1 }, { n: 2 }, { n: 3 });
      const refused = await waitEvents(t, b.id, 1, "$errors", 10_000, u.key);
      assert.equal(refused[0].event.error.name, "QuotaExceeded");
      // the two deliveries within the quota land (waited for, not slept on: CI is loaded)
      const got = await waitEvents(t, b.id, 2, "", 10_000, u.key);
      assert.deepEqual(got.map((e) => e.event.got.n).reverse(), [1, 2]);
      const me = await t.request("GET", "/v1/users/me", { key: u.key });
      assert.equal(me.body.data.daily_invocations_used, 3);
    } finally {
      await t.close();
    }
  });
});
