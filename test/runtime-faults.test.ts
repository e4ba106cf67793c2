import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import pg from "pg";
import {
  assertErrorEnvelope,
  createSource,
  endpointPath,
  eventsOf,
  restart,
  startApp,
  waitEvents,
  waitFor,
  type TestApp,
} from "./helpers.ts";

// What a component hands the host, and what a burst of work costs, is bounded: a value nested
// too deep, a bad respond(), a backlog past the in-flight cap, a runner past its RSS limit. None
// of them takes the service down or loses accepted work.

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

async function healthy(t: TestApp): Promise<void> {
  const res = await t.request("GET", "/healthz", { key: null });
  assert.equal(res.status, 200, res.text);
}

describe("nesting and respond() at the runtime's edges", () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  it("an emit nested 5,000 levels deep with a listener subscribed lands on $errors; the service stays up", async () => {
    const emitter = await createSource(t, `export default { run() { this.$emit(JSON.parse(${JSON.stringify(deep(5000))})); this.$emit({ fine: true }); } }`);
    const listener = await createSource(t, `export default { run(e) { this.$emit({ got: e }); } }`);
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${emitter.id}&listener_id=${listener.id}`);
    assert.equal(sub.status, 200, sub.text);
    assert.equal((await t.request("POST", `/v1/sources/${emitter.id}/run`)).status, 202);
    const errors = await waitEvents(t, emitter.id, 1, "$errors");
    assert.match(errors[0].event.error.message, /deeper than 256 levels/);
    const got = await waitEvents(t, listener.id, 1);
    assert.deepEqual(got[0].event, { got: { fine: true } });
    await healthy(t);
  });

  it("a stored run whose event is nested deeper than anything allowed runs without harm after a restart", async () => {
    const source = await createSource(t, `export default { run(e) { this.$emit({ kind: typeof e }); } }`);
    // written straight to the inbox, as an older version (or another node) could have
    await t.app.store.events.inboxAdd([{ source_id: source.id, kind: "run", event: deep(20_000), received_at_ms: Date.now() }]);
    await t.app.close();
    const second = await restart(t);
    try {
      const got = await waitEvents(second, source.id, 1);
      assert.deepEqual(got[0].event, { kind: "object" });
      assert.deepEqual(await second.app.store.events.inboxFor(source.id, 10), []);
      await healthy(second);
    } finally {
      await second.close();
    }
    t = await startApp();
  });

  it("respond() with a CR/LF header: the client gets a 500 source_failed envelope, $errors names the header", async () => {
    const source = await createSource(
      t,
      `export default { props: { http: { type: "$.interface.http", customResponse: true } }, run() {
        this.http.respond({ status: 200, headers: { "x-evil": "a\\r\\nset-cookie: pwned=1" }, body: "hi" }); } }`,
    );
    const res = await t.request("POST", endpointPath(source), { body: { a: 1 }, key: null });
    assertErrorEnvelope(res, 500, "source_failed");
    assert.equal(res.headers["set-cookie"], undefined);
    const errors = await waitEvents(t, source.id, 1, "$errors");
    assert.match(errors[0].event.error.message, /header "x-evil"/);
    await healthy(t);
  });

  it("respond() with Transfer-Encoding: the reply carries the server's framing only", async () => {
    const source = await createSource(
      t,
      `export default { props: { http: { type: "$.interface.http", customResponse: true } }, run() {
        this.http.respond({ status: 202, headers: { "transfer-encoding": "chunked", "x-kept": "1" }, body: { ok: true } }); } }`,
    );
    const res = await t.request("POST", endpointPath(source), { body: {}, key: null });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, { ok: true });
    assert.equal(res.headers["transfer-encoding"], undefined);
    assert.equal(res.headers["x-kept"], "1");
  });
});

describe("bounded backlog", () => {
  it("with 4 runs in flight at most, 150 accepted requests all run, in the order they were accepted", async () => {
    const t = await startApp({ TRIBUTARY_MAX_IN_FLIGHT: "4", TRIBUTARY_EVENT_RETENTION: "1000" });
    try {
      const source = await createSource(
        t,
        `export default { props: { http: "$.interface.http" }, async run(e) { await new Promise((r) => setTimeout(r, 2)); this.$emit(e.body.n); } }`,
      );
      const path = endpointPath(source);
      let peak = 0;
      const watch = setInterval(() => (peak = Math.max(peak, t.app.core.runtime.capacity.inFlight)), 1);
      try {
        // sent in order, each acknowledged before the next: the order they were accepted in
        for (let n = 0; n < 150; n++) {
          const res = await t.request("POST", path, { body: { n }, key: null });
          assert.equal(res.status, 200, res.text);
        }
        await waitFor(async () => {
          const page = await t.request("GET", `/v1/sources/${source.id}/event_summaries?limit=1`);
          return page.body.page_info.total_count >= 150;
        }, 30_000, "150 events");
      } finally {
        clearInterval(watch);
      }
      const all: number[] = [];
      let cursor = "";
      for (;;) {
        const page = await t.request("GET", `/v1/sources/${source.id}/event_summaries?limit=100&expand=event${cursor ? `&after=${cursor}` : ""}`);
        all.push(...page.body.data.map((e: { event: number }) => e.event));
        if (page.body.data.length < 100) break;
        cursor = page.body.page_info.end_cursor;
      }
      assert.deepEqual(all.reverse(), Array.from({ length: 150 }, (_, n) => n));
      assert.ok(peak <= 4, `at most 4 runs in flight, saw ${peak}`);
      assert.deepEqual(await t.app.store.events.inboxFor(source.id, 10), []);
    } finally {
      await t.close();
    }
  });
});

// The store refusing one result, for a reason of that result's own (here a trigger, as a check
// constraint or an encoding rule would): that run alone fails, is set aside on $errors with its
// event after a few tries, and the results that shared its group commit land.
async function refuseStream(t: TestApp, stream: string): Promise<void> {
  if (t.storeEnv.DATABASE_URL) {
    const c = new pg.Client({ connectionString: t.storeEnv.DATABASE_URL });
    await c.connect();
    await c.query(`CREATE FUNCTION refuse_stream() RETURNS trigger AS $$ BEGIN
      IF NEW.event_name = '${stream}' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await c.query("CREATE TRIGGER refuse_stream BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION refuse_stream()");
    await c.end();
    return;
  }
  const db = new Sqlite(join(t.dataDir, "tributary.db"));
  db.exec(`CREATE TRIGGER refuse_stream BEFORE INSERT ON events WHEN NEW.event_name = '${stream}'
    BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`);
  db.close();
}

describe("a result the store refuses", () => {
  it("fails alone: set aside on $errors with its event, its group's other results land, the inbox drains", async () => {
    const t = await startApp();
    try {
      const code = `export default { props: { http: "$.interface.http" }, run(e) { this.$emit(e.body.n, { name: e.body.stream }); } }`;
      const a = await createSource(t, code);
      const b = await createSource(t, code);
      await refuseStream(t, "poison");
      const sends = [];
      for (let n = 1; n <= 20; n++) {
        sends.push(t.request("POST", endpointPath(a), { body: { n, stream: n === 7 ? "poison" : "" }, key: null }));
        sends.push(t.request("POST", endpointPath(b), { body: { n, stream: "" }, key: null }));
      }
      for (const res of await Promise.all(sends)) assert.equal(res.status, 200, res.text);
      const errors = await waitEvents(t, a.id, 1, "$errors", 20_000);
      assert.equal(errors[0].event.error.name, "InternalError");
      assert.match(errors[0].event.error.message, /could not be committed/);
      assert.equal(errors[0].event.invocation.event.body.n, 7);
      const gotA = (await waitEvents(t, a.id, 19)).map((e) => e.event).sort((x, y) => x - y);
      assert.deepEqual(gotA, Array.from({ length: 20 }, (_, i) => i + 1).filter((n) => n !== 7));
      assert.equal((await waitEvents(t, b.id, 20)).length, 20);
      await waitFor(async () => (await t.app.store.events.inboxSources()).length === 0, 10_000, "the inbox to drain");
      await healthy(t);
    } finally {
      await t.close();
    }
  });
});

// With room for two runs in memory, the source's lane reads its rows back from the inbox after
// nearly every run, so a run's failure often comes while a read is under way. The failure sends
// the lane back to the failed row; the read that was under way must not carry it past that row
// again, or the row stays in the inbox, never retried and never set aside.
describe("results the store refuses, while the inbox is read back", () => {
  it("each refused run is retried and set aside; every other run lands; the inbox drains", async () => {
    const t = await startApp({ TRIBUTARY_MAX_IN_FLIGHT: "2" });
    try {
      const a = await createSource(t, `export default { props: { http: "$.interface.http" }, run(e) { this.$emit(e.body.n, { name: e.body.stream }); } }`);
      await refuseStream(t, "poison");
      const poison = new Set([5, 17, 29]);
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => t.request("POST", endpointPath(a), { body: { n: i, stream: poison.has(i) ? "poison" : "" }, key: null })),
      );
      for (const res of replies) assert.equal(res.status, 200, res.text);
      const errors = await waitEvents(t, a.id, poison.size, "$errors", 60_000);
      assert.deepEqual(errors.map((e) => e.event.invocation.event.body.n).sort((x, y) => x - y), [...poison]);
      const got = (await waitEvents(t, a.id, 40 - poison.size)).map((e) => e.event).sort((x, y) => x - y);
      assert.deepEqual(got, Array.from({ length: 40 }, (_, i) => i).filter((n) => !poison.has(n)));
      await waitFor(async () => (await t.app.store.events.inboxSources()).length === 0, 10_000, "the inbox to drain");
      await healthy(t);
    } finally {
      await t.close();
    }
  });
});

describe("runner recycling", () => {
  it("a runner past its RSS limit is replaced once its work is done; runs and db state carry on", async () => {
    // 1 MiB: every runner is past it after its first reply, so each batch of work gets a new one
    const t = await startApp({ TRIBUTARY_RUNNER_MAX_RSS_MB: "1", TRIBUTARY_RUNNERS: "1" });
    try {
      const source = await createSource(
        t,
        `export default { props: { db: "$.service.db" }, run() { const n = (this.db.get("n") ?? 0) + 1; this.db.set("n", n); this.$emit(n); } }`,
      );
      for (let i = 0; i < 5; i++) {
        assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
        await waitEvents(t, source.id, i + 1);
      }
      const got = (await eventsOf(t, source.id)).map((e) => e.event);
      assert.deepEqual(got, [5, 4, 3, 2, 1]);
      const started = t.app.runners.stats()[0].started;
      assert.ok(started >= 3, `runners started: ${started}`);
    } finally {
      await t.close();
    }
  });
});
