import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  assertErrorEnvelope, createSource, eventsOf, startApp, waitEvents, waitFor, type TestApp,
} from "./helpers.ts";

// Events: emitting (docs/writing-components.md, "Emitting events"), reading and deleting (docs/api.md, "Events"),
// through POST /run.

const EMITTER = `
export default {
  props: { db: "$.service.db" },
  run(event) {
    for (const e of (event && event.emits) || []) this.$emit(e.event, e.meta);
  },
};`;

async function run(t: TestApp, id: string, event: unknown, key?: string) {
  const res = await t.request("POST", `/v1/sources/${id}/run`, { key, body: { event } });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body, { data: { accepted: true } });
}

const emits = (...list: { event: unknown; meta?: unknown }[]) => ({ emits: list });

describe("events", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_EVENT_RETENTION: "20" })));
  after(() => t.close());

  it("run emits land in order with their metadata; names pick streams", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, emits(
      { event: { a: 1 }, meta: { id: "x1", summary: "first" } },
      { event: { a: 2 } },
      { event: { c: 1 }, meta: { name: "custom" } },
    ));
    const items = await waitEvents(t, src.id, 2);
    assert.deepEqual(items.map((i) => i.event), [{ a: 2 }, { a: 1 }]);
    assert.equal(items[1].metadata.id, "x1");
    assert.equal(items[1].metadata.summary, "first");
    const custom = await eventsOf(t, src.id, "custom");
    assert.deepEqual(custom.map((i) => i.event), [{ c: 1 }]);
    assert.equal(custom[0].metadata.name, "custom");
    const [a, b] = items.map((i) => i.id.split("-").map(Number));
    assert.ok(a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]), "ids grow");
  });

  it("emits are ordered by meta.ts; ties keep call order", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, emits(
      { event: "c", meta: { ts: 3000 } },
      { event: "a", meta: { ts: 1000 } },
      { event: "b1", meta: { ts: 2000 } },
      { event: "b2", meta: { ts: 2000 } },
    ));
    const items = await waitEvents(t, src.id, 4);
    assert.deepEqual(items.map((i) => i.event).reverse(), ["a", "b1", "b2", "c"]);
    assert.equal(items[0].metadata.ts, 3000);
  });

  it("without expand an event over 1 KB is truncated; with expand=event it is whole", async () => {
    const src = await createSource(t, EMITTER);
    const big = { text: "é".repeat(1000) };
    await run(t, src.id, emits({ event: big }, { event: { small: true } }));
    await waitEvents(t, src.id, 2);
    const res = await t.request("GET", `/v1/sources/${src.id}/event_summaries`);
    assert.equal(res.status, 200);
    const [small, truncated] = res.body.data;
    assert.deepEqual(small.event, { small: true });
    assert.equal(truncated.event.truncated, true);
    assert.equal(truncated.event.size, Buffer.byteLength(JSON.stringify(big)));
    assert.ok(Buffer.byteLength(truncated.event.preview) <= 1024);
    assert.ok(JSON.stringify(big).startsWith(truncated.event.preview));
    const full = await t.request("GET", `/v1/sources/${src.id}/event_summaries?expand=event`);
    assert.deepEqual(full.body.data[1].event, big);
  });

  it("pages newest first with limit and raw event id cursors", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, emits(...Array.from({ length: 7 }, (_, i) => ({ event: i }))));
    await waitEvents(t, src.id, 7);
    const first = await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=3`);
    assert.deepEqual(first.body.data.map((i: any) => i.event), [6, 5, 4]);
    assert.equal(first.body.page_info.total_count, 7);
    assert.equal(first.body.page_info.count, 3);
    assert.equal(first.body.page_info.start_cursor, first.body.data[0].id);
    const next = await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=3&after=${first.body.page_info.end_cursor}`);
    assert.deepEqual(next.body.data.map((i: any) => i.event), [3, 2, 1]);
    const back = await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=2&before=${next.body.page_info.start_cursor}`);
    assert.deepEqual(back.body.data.map((i: any) => i.event), [5, 4]);
  });

  it("bad paging is 400; another user's source is 404; no key is 401", async () => {
    const src = await createSource(t, EMITTER);
    for (const q of ["limit=0", "limit=101", "after=abc", "before=12-x"]) {
      assertErrorEnvelope(await t.request("GET", `/v1/sources/${src.id}/event_summaries?${q}`), 400, "invalid_request");
    }
    const other = await t.newUser();
    assertErrorEnvelope(await t.request("GET", `/v1/sources/${src.id}/event_summaries`, { key: other.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("DELETE", `/v1/sources/${src.id}/events`, { key: other.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("POST", `/v1/sources/${src.id}/run`, { key: other.key, body: {} }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/sources/${src.id}/event_summaries`, { key: null }), 401, "unauthorized");
  });

  it("each stream keeps only its newest N events (TRIBUTARY_EVENT_RETENTION)", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, emits(...Array.from({ length: 25 }, (_, i) => ({ event: i }))));
    await waitFor(async () => (await eventsOf(t, src.id))[0]?.event === 24, 10_000, "the last emit");
    const res = await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=100`);
    assert.equal(res.body.page_info.total_count, 20);
    assert.deepEqual(res.body.data.map((i: any) => i.event).at(-1), 5);
  });

  it("DELETE /events: 202, inclusive bounds, one id deletes one event, none deletes all", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, emits(...Array.from({ length: 6 }, (_, i) => ({ event: i }))));
    const ids = (await waitEvents(t, src.id, 6)).map((i) => i.id).reverse(); // oldest first
    const del = async (q: string) => {
      const res = await t.request("DELETE", `/v1/sources/${src.id}/events${q}`);
      assert.equal(res.status, 202);
      assert.deepEqual(res.body, { data: { accepted: true } });
    };
    const remaining = async (n: number) =>
      waitFor(async () => {
        const left = (await eventsOf(t, src.id)).map((i) => i.event).reverse();
        return left.length === n ? left : undefined;
      }, 5000, `${n} events left`);
    await del(`?start_id=${ids[2]}&end_id=${ids[2]}`);
    assert.deepEqual(await remaining(5), [0, 1, 3, 4, 5]);
    await del(`?start_id=${ids[4]}`);
    assert.deepEqual(await remaining(3), [0, 1, 3]);
    await del(`?end_id=${ids[0]}`);
    assert.deepEqual(await remaining(2), [1, 3]);
    await del("");
    assert.deepEqual(await remaining(0), []);
    assertErrorEnvelope(await t.request("DELETE", `/v1/sources/${src.id}/events?start_id=yesterday`), 400, "invalid_request");
  });

  it("dedupe unique drops ids seen before, across invocations", async () => {
    const src = await createSource(t, EMITTER.replace("props:", 'dedupe: "unique", props:'));
    await run(t, src.id, emits({ event: 1, meta: { id: "a" } }, { event: 2, meta: { id: "b" } }));
    await run(t, src.id, emits({ event: 3, meta: { id: "b" } }, { event: 4, meta: { id: "c" } }, { event: 5 }));
    const logs = await waitEvents(t, src.id, 1, "$logs");
    assert.match(JSON.stringify(logs[0].event), /without meta.id/);
    const items = await eventsOf(t, src.id);
    assert.deepEqual(items.map((i) => i.event).reverse(), [1, 2, 4, 5]);
  });

  it("dedupe greatest keeps only growing numeric ids; last keeps what follows the last id", async () => {
    const g = await createSource(t, EMITTER.replace("props:", 'dedupe: "greatest", props:'));
    await run(t, g.id, emits({ event: "a", meta: { id: 5 } }, { event: "b", meta: { id: 3 } }, { event: "c", meta: { id: 9 } }));
    await run(t, g.id, emits({ event: "d", meta: { id: 8 } }, { event: "e", meta: { id: 10 } }));
    await waitFor(async () => (await eventsOf(t, g.id))[0]?.event === "e", 5000, "e");
    assert.deepEqual((await eventsOf(t, g.id)).map((i) => i.event).reverse(), ["a", "c", "e"]);

    const l = await createSource(t, EMITTER.replace("props:", 'dedupe: "last", props:'));
    await run(t, l.id, emits({ event: "a", meta: { id: 1 } }, { event: "b", meta: { id: 2 } }));
    await run(t, l.id, emits({ event: "a", meta: { id: 1 } }, { event: "b", meta: { id: 2 } }, { event: "c", meta: { id: 3 } }));
    await waitFor(async () => (await eventsOf(t, l.id))[0]?.event === "c", 5000, "c");
    assert.deepEqual((await eventsOf(t, l.id)).map((i) => i.event).reverse(), ["a", "b", "c"]);
  });

  it("db state persists between invocations", async () => {
    const code = `export default { props: { db: "$.service.db" }, run() {
      const n = (this.db.get("n") ?? 0) + 1; this.db.set("n", n); this.$emit({ n });
    } };`;
    const src = await createSource(t, code);
    for (let i = 0; i < 3; i++) await run(t, src.id, {});
    const items = await waitEvents(t, src.id, 3);
    assert.deepEqual(items.map((i) => i.event.n), [3, 2, 1]);
  });

  it("a run that throws commits nothing but $errors and $logs", async () => {
    const code = `export default { props: { db: "$.service.db" }, run() {
      console.log("before", 1); this.db.set("k", 1); this.$emit({ lost: true }); throw new TypeError("bad thing");
    } };`;
    const src = await createSource(t, code);
    await run(t, src.id, {});
    const [err] = await waitEvents(t, src.id, 1, "$errors");
    assert.equal(err.event.error.name, "TypeError");
    assert.equal(err.event.error.message, "bad thing");
    assert.equal(typeof err.event.error.stack, "string");
    assert.equal(err.event.invocation.kind, "run");
    assert.equal(typeof err.event.invocation.started_at, "number");
    const [log] = await waitEvents(t, src.id, 1, "$logs");
    assert.equal(log.event.lines[0].msg, "before 1");
    assert.equal(log.event.lines[0].level, "log");
    // the error and the log lines name the same invocation; another run is another one
    assert.match(err.event.invocation.id, /^inv_/);
    assert.deepEqual(log.event.invocation, err.event.invocation);
    await run(t, src.id, {});
    const errs = await waitEvents(t, src.id, 2, "$errors");
    assert.notEqual(errs[0].event.invocation.id, errs[1].event.invocation.id);
    assert.deepEqual(await eventsOf(t, src.id), []);
  });

  it("an error's stack names the user's own lines, also in code bundled with what it imports", async () => {
    const plain = await createSource(t, `export default {\n  name: "x",\n  run() {\n    throw new Error("line four");\n  },\n};\n`);
    const bundled = await createSource(t, `import { Buffer } from "node:buffer";\nimport { inspect } from "node:util";\n\nexport default {\n  run() {\n    const b = Buffer.from(inspect({ a: 1 }));\n    throw new Error("line seven " + b.length);\n  },\n};\n`);
    for (const [src, where] of [[plain, "component.mjs:4:11"], [bundled, "component.mjs:7:11"]] as const) {
      await run(t, src.id, {});
      const [err] = await waitEvents(t, src.id, 1, "$errors");
      assert.ok(err.event.error.stack.includes(`(${where})`), err.event.error.stack);
      assert.ok(!err.event.error.stack.includes("tributary:"), `the sandbox's own frames are left out: ${err.event.error.stack}`);
    }
  });

  it("POST /run needs no body; a body that isn't an object is 400", async () => {
    const src = await createSource(t, `export default { run(e) { this.$emit(e === undefined ? "no event" : e); } };`);
    const res = await t.app.http.inject({ method: "POST", url: `/v1/sources/${src.id}/run`, headers: { authorization: `Bearer ${t.adminKey}` } });
    assert.equal(res.statusCode, 202);
    const [item] = await waitEvents(t, src.id, 1);
    assert.equal(item.event, "no event");
    assertErrorEnvelope(await t.request("POST", `/v1/sources/${src.id}/run`, { body: [1] }), 400, "invalid_request");
  });

  it("invocations count toward the owner's usage on /users/me", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    for (let i = 0; i < 3; i++) await run(t, src.id, emits({ event: i }), user.key);
    await waitEvents(t, src.id, 3, "", 10_000, user.key);
    const me = await t.request("GET", "/v1/users/me", { key: user.key });
    assert.equal(me.body.data.daily_invocations_used, 3);
    assert.ok(me.body.data.daily_compute_time_used >= 0);
  });
});

describe("quotas", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_DAILY_INVOCATIONS_QUOTA: "2" })));
  after(() => t.close());

  it("once the daily invocations are used up, runs are refused with 429 and recorded once on $errors", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    await run(t, src.id, emits({ event: 1 }), user.key);
    await run(t, src.id, emits({ event: 2 }), user.key);
    await waitEvents(t, src.id, 2, "", 10_000, user.key);
    for (let i = 0; i < 2; i++) {
      assertErrorEnvelope(await t.request("POST", `/v1/sources/${src.id}/run`, { key: user.key, body: {} }), 429, "quota_exceeded");
    }
    const errors = await waitEvents(t, src.id, 1, "$errors", 10_000, user.key);
    assert.equal(errors.length, 1, "recorded at most once a minute");
    assert.equal(errors[0].event.error.name, "QuotaExceeded");
  });
});
