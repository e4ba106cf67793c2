import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, createSource, endpointPath, startApp, waitFor, type TestApp } from "./helpers.ts";

// TRIBUTARY_MAX_BACKLOG: past a bound on accepted runs waiting in the inbox, endpoints and
// run-now wait for room up to TRIBUTARY_OVERLOAD_HOLD_MS, then answer 429 overloaded with
// Retry-After; what was accepted still runs, nothing is lost. (The refusals are tested with no
// hold, the hold on its own.)

const SLOW = `
export default {
  key: "slow-sink",
  props: { http: "$.interface.http" },
  async run(event) {
    await new Promise((r) => setTimeout(r, 300));
    this.$emit(event.body);
  },
};
`;

describe("backlog bound", () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ TRIBUTARY_MAX_BACKLOG: "5", TRIBUTARY_OVERLOAD_HOLD_MS: "0" });
  });
  after(() => t.close());

  test("past the bound, endpoints answer 429 overloaded with Retry-After; every accepted request runs", async () => {
    const src = await createSource(t, SLOW);
    const path = endpointPath(src);
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.app.http.inject({ method: "POST", url: path, payload: { i }, headers: { "content-type": "application/json" } })),
    );
    const accepted = replies.filter((r) => r.statusCode === 200).map((_, i) => i);
    const refused = replies.filter((r) => r.statusCode === 429);
    assert.ok(accepted.length >= 5, `accepted ${accepted.length}`);
    assert.ok(refused.length > 0, "some requests were refused");
    assert.equal(accepted.length + refused.length, 40);
    const one = refused[0];
    assertErrorEnvelope({ status: one.statusCode, headers: one.headers, body: JSON.parse(one.body), text: one.body }, 429, "overloaded");
    assert.equal(one.headers["retry-after"], "1");
    // refusing, the service counts as past capacity: accepted runs yield to the edge (edge-first.ts)
    assert.equal(t.app.core.runtime.backlog.refusing, true);
    // run-now is bounded the same way
    const run = await t.request("POST", `/v1/sources/${src.id}/run`, { body: { event: { now: true } } });
    assert.ok(run.status === 202 || run.status === 429, `run-now: ${run.status}`);
    const acceptedCount = accepted.length + (run.status === 202 ? 1 : 0);
    // everything accepted is stored once the backlog drains, and the endpoint takes work again
    await waitFor(async () => {
      const res = await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=1`);
      return res.body.page_info.total_count >= acceptedCount ? true : undefined;
    }, 30_000, "the accepted runs");
    // the first request after the drain is accepted: the count taken during the burst is stale
    assert.equal((await t.app.http.inject({ method: "POST", url: path, payload: {}, headers: { "content-type": "application/json" } })).statusCode, 200);
  });

  test("TRIBUTARY_MAX_BACKLOG must be a whole number", async () => {
    const { resolveConfig } = await import("../src/config.ts");
    assert.throws(() => resolveConfig({ TRIBUTARY_MAX_BACKLOG: "lots" }), /TRIBUTARY_MAX_BACKLOG/);
    assert.equal(resolveConfig({ TRIBUTARY_MAX_BACKLOG: "0" }).maxBacklog, 0);
    // the event-loop delay past which accepted runs yield to the edge: 25 ms, 0 turns it off
    assert.equal(resolveConfig({}).edgeLagMs, 25);
    assert.equal(resolveConfig({ TRIBUTARY_EDGE_LAG_MS: "0" }).edgeLagMs, 0);
    assert.throws(() => resolveConfig({ TRIBUTARY_EDGE_LAG_MS: "soon" }), /TRIBUTARY_EDGE_LAG_MS/);
    // how long a request past the bound waits for room: 3 s, 0 refuses at once
    assert.equal(resolveConfig({}).overloadHoldMs, 3000);
    assert.equal(resolveConfig({ TRIBUTARY_OVERLOAD_HOLD_MS: "0" }).overloadHoldMs, 0);
    assert.throws(() => resolveConfig({ TRIBUTARY_OVERLOAD_HOLD_MS: "-1" }), /TRIBUTARY_OVERLOAD_HOLD_MS/);
  });
});

// With room for only a couple of runs in memory, every lane keeps waiting for room and reading
// the store back; a wake-up that arrives while a lane reads must not be lost, or rows stay in the
// inbox (deliveries in their table) with nothing left to run them.
describe("a tiny in-flight capacity still runs everything", () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ TRIBUTARY_MAX_IN_FLIGHT: "2", TRIBUTARY_EVENT_RETENTION: "10000" });
  });
  after(() => t.close());

  test("every accepted request of several sources, and every delivery to their listeners, runs", async () => {
    const echo = `export default { props: { http: "$.interface.http" }, run(event) { this.$emit(event.body); } }`;
    const listen = `export default { run(event) { this.$emit(event); } }`;
    const sources = await Promise.all([1, 2, 3].map(() => createSource(t, echo)));
    const listeners = await Promise.all([1, 2].map(() => createSource(t, listen)));
    for (const l of listeners) {
      const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${sources[0]!.id}&listener_id=${l.id}`);
      assert.equal(sub.status, 200, sub.text);
    }
    const PER = 300;
    for (let round = 0; round < PER / 50; round++) {
      const replies = await Promise.all(
        sources.flatMap((s) =>
          Array.from({ length: 50 }, (_, i) => t.app.http.inject({ method: "POST", url: endpointPath(s), payload: { i: round * 50 + i }, headers: { "content-type": "application/json" } })),
        ),
      );
      assert.ok(replies.every((r) => r.statusCode === 200));
    }
    const count = async (id: string) => (await t.request("GET", `/v1/sources/${id}/event_summaries?limit=1`)).body.page_info.total_count as number;
    for (const id of [...sources, ...listeners].map((s) => s.id)) {
      await waitFor(async () => ((await count(id)) >= PER ? true : undefined), 60_000, `all ${PER} events of ${id}`);
    }
    // each exactly once: a read-back that took a running or finished row again would run it twice
    for (const id of [...sources, ...listeners].map((s) => s.id)) assert.equal(await count(id), PER, id);
    const seen = new Set<number>();
    for (let after = ""; ; ) {
      const page = (await t.request("GET", `/v1/sources/${sources[1]!.id}/event_summaries?limit=100&expand=event${after}`)).body;
      for (const e of page.data) seen.add(e.event.i);
      if (page.data.length < 100) break;
      after = `&after=${page.page_info.end_cursor}`;
    }
    assert.deepEqual([...seen].sort((a, b) => a - b), Array.from({ length: PER }, (_, i) => i));
  });
});

// Past the bound the refusal is made by the node:http server before Fastify routes the request
// (src/http/early-refusal.ts): real HTTP here, as inject() goes around that server.
describe("backlog bound, over real HTTP", () => {
  let t: TestApp;
  let base = "";
  before(async () => {
    t = await startApp({ TRIBUTARY_MAX_BACKLOG: "3", TRIBUTARY_OVERLOAD_HOLD_MS: "0" });
    base = await t.app.http.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("endpoints answer 429 with the envelope and Retry-After, preflights and the API still answer, and every accepted request runs", async () => {
    const src = await createSource(t, SLOW);
    const url = base + endpointPath(src);
    const post = async (i: number) => {
      const res = await fetch(url, { method: "POST", body: JSON.stringify({ i }), headers: { "content-type": "application/json", origin: "https://app.example" } });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    };
    let accepted = 0;
    // bursts until refusals come, from the early path or from Ingress (the same answer either way)
    const refused = await waitFor(async () => {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i)));
      for (const r of replies) assert.ok(r.status === 200 || r.status === 429, `${r.status} ${r.text}`);
      accepted += replies.filter((r) => r.status === 200).length;
      return replies.find((r) => r.status === 429);
    }, 30_000, "a 429");
    assertErrorEnvelope({ ...refused, body: JSON.parse(refused.text) }, 429, "overloaded");
    assert.equal(refused.headers["retry-after"], "1");
    assert.match(refused.text, /3 or more accepted runs waiting/);
    const preflight = await fetch(url, { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST" } });
    assert.equal(preflight.status, 204);
    assert.equal((await t.request("GET", `/v1/sources/${src.id}`)).status, 200);
    const count = async () => (await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=1`)).body.page_info.total_count as number;
    await waitFor(async () => ((await count()) >= accepted ? true : undefined), 60_000, `the ${accepted} accepted requests' events`);
    assert.equal(await count(), accepted);
  });
});

// A source disabled while runs it accepted wait in the inbox: those runs wait for it (they run
// once it is enabled again), and meanwhile they don't count toward the bound: one user's
// disabled source must not keep every other user's endpoints refusing.
describe("a source disabled with accepted runs waiting", () => {
  let t: TestApp;
  before(async () => {
    // one run at a time, each taking a while: the runs accepted below wait in the inbox
    t = await startApp({ TRIBUTARY_MAX_BACKLOG: "5", TRIBUTARY_MAX_IN_FLIGHT: "1" });
  });
  after(() => t.close());

  const post = (path: string, i: number) =>
    t.app.http.inject({ method: "POST", url: path, payload: { i }, headers: { "content-type": "application/json" } });

  test("its runs don't hold the bound shut for others, run-now is refused, and enabling it runs them all", async () => {
    const slow = `export default {
      props: { http: "$.interface.http" },
      async run(event) { await new Promise((r) => setTimeout(r, 1000)); this.$emit(event.body); },
    }`;
    const flooded = await createSource(t, slow);
    // five in a row, each judged by the count and what was accepted since: all five are accepted
    for (let i = 0; i < 5; i++) assert.equal((await post(endpointPath(flooded), i)).statusCode, 200);
    const off = await t.request("PUT", `/v1/sources/${flooded.id}`, { body: { active: false } });
    assert.equal(off.status, 200, off.text);
    const waiting = (await t.app.store.events.inboxFor(flooded.id, 100)).length;
    assert.ok(waiting >= 2, `runs waiting when disabled: ${waiting}`);

    // another user's source accepts up to the bound again (before: every request answered 429
    // until the flooded source was enabled)
    const other = await t.newUser();
    const echo = await createSource(t, `export default { props: { http: "$.interface.http" }, run(e) { this.$emit(e.body); } }`, {}, other.key);
    await waitFor(async () => {
      for (let i = 0; i < 4; i++) if ((await post(endpointPath(echo), i)).statusCode !== 200) return false;
      return true;
    }, 10_000, "four requests in a row accepted by another user's source");
    await waitFor(async () => (await t.app.store.events.inboxFor(echo.id, 100)).length === 0, 10_000, "the other source's runs");
    // what waits for the disabled source is still there, and not counted
    assert.ok((await t.app.store.events.inboxCount()) >= 1);
    assert.equal(await t.app.store.events.backlogCount(), 0);

    // run-now on a disabled source: a clear refusal rather than a run that waits unseen
    const run = await t.request("POST", `/v1/sources/${flooded.id}/run`, { body: { event: { now: true } } });
    assertErrorEnvelope(run, 409, "conflict");
    assert.match(run.body.error.message, /disabled/);
    // another user's id stays not found
    assert.equal((await t.request("POST", `/v1/sources/${flooded.id}/run`, { key: other.key })).status, 404);

    // the run that was under way when it was disabled ends; the rest wait
    await waitFor(async () => (await t.request("GET", `/v1/sources/${flooded.id}/event_summaries?limit=1`)).body.page_info.total_count >= 1, 10_000, "the run under way");
    assert.ok((await t.app.store.events.inboxFor(flooded.id, 100)).length >= 1);
    // enabled again, every accepted run runs (before: they waited until a restart)
    const on = await t.request("PUT", `/v1/sources/${flooded.id}`, { body: { active: true } });
    assert.equal(on.status, 200, on.text);
    const got = await waitFor(async () => {
      const page = (await t.request("GET", `/v1/sources/${flooded.id}/event_summaries?limit=10&expand=event`)).body;
      // the rows themselves: on PostgreSQL the page and its total_count are two reads, and a run
      // committing between them is counted before it is listed
      return page.data.length >= 5 ? page.data.map((e: { event: { i: number } }) => e.event.i) : undefined;
    }, 20_000, "the five accepted runs");
    assert.deepEqual([...got].sort((a, b) => a - b), [0, 1, 2, 3, 4]);
    await waitFor(async () => (await t.app.store.events.inboxFor(flooded.id, 100)).length === 0, 10_000, "its inbox to drain");
  });
});

// Past the bound a request waits for room (a run finishing) instead of being refused: a client
// a few times faster than the runs sees slower answers, not 429s; past the hold bound, 429.
describe("overload that holds", () => {
  let t: TestApp;
  let base = "";
  before(async () => {
    t = await startApp({ TRIBUTARY_MAX_BACKLOG: "3", TRIBUTARY_OVERLOAD_HOLD_MS: "20000" });
    base = await t.app.http.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  const QUICK = `export default { props: { http: "$.interface.http" }, async run(event) {
    await new Promise((r) => setTimeout(r, 20)); this.$emit(event.body); } }`;

  test("requests past the bound wait for room and are all accepted, in turn, and every one runs once", async () => {
    const src = await createSource(t, QUICK);
    const url = base + endpointPath(src);
    // 10 closed-loop clients, 6 requests each, against room for 3: before, most got 429
    let waited = false;
    const client = async (c: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(url, { method: "POST", body: JSON.stringify({ c, i }), headers: { "content-type": "application/json" } });
        await res.text();
        statuses.push(res.status);
        if (t.app.core.runtime.backlog.holding > 0) waited = true;
      }
      return statuses;
    };
    const all = (await Promise.all(Array.from({ length: 10 }, (_, c) => client(c)))).flat();
    assert.deepEqual([...new Set(all)], [200], "every request accepted");
    assert.ok(waited, "some requests waited for room");
    assert.equal(t.app.core.runtime.backlog.refusing, false);
    const count = async () => (await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=1`)).body.page_info.total_count as number;
    await waitFor(async () => ((await count()) >= 60 ? true : undefined), 30_000, "the 60 events");
    assert.equal(await count(), 60);
  });
});

describe("overload past the hold bound", () => {
  let t: TestApp;
  let base = "";
  before(async () => {
    t = await startApp({ TRIBUTARY_MAX_BACKLOG: "2", TRIBUTARY_OVERLOAD_HOLD_MS: "400" });
    base = await t.app.http.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("a request that found no room within the hold bound is answered 429, after waiting it out", async () => {
    const src = await createSource(t, SLOW);
    const url = base + endpointPath(src);
    const post = async (i: number) => {
      const started = performance.now();
      const res = await fetch(url, { method: "POST", body: JSON.stringify({ i }), headers: { "content-type": "application/json" } });
      await res.text();
      return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after") };
    };
    // runs of 300 ms one after another, room for 2: 12 at once can't all get in within 400 ms
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i)));
    const refused = replies.filter((r) => r.status === 429);
    const accepted = replies.filter((r) => r.status === 200);
    assert.equal(refused.length + accepted.length, 12);
    assert.ok(refused.length > 0, "some were refused");
    // refused only once they had waited the bound out (the first few may be refused at once when
    // no more may wait: at least MIN_HELD may, far more than 12)
    for (const r of refused) assert.ok(r.ms >= 350, `refused after ${Math.round(r.ms)} ms`);
    assert.equal(refused[0]!.retryAfter, "1");
    const count = async () => (await t.request("GET", `/v1/sources/${src.id}/event_summaries?limit=1`)).body.page_info.total_count as number;
    await waitFor(async () => ((await count()) >= accepted.length ? true : undefined), 30_000, "the accepted runs");
    assert.equal(await count(), accepted.length);
  });
});

describe("overload at a stop", () => {
  test("requests waiting for room are answered 503 at once when the service stops, not after the hold bound", async () => {
    const t = await startApp({ TRIBUTARY_MAX_BACKLOG: "1", TRIBUTARY_OVERLOAD_HOLD_MS: "60000" });
    let closed = false;
    try {
      const src = await createSource(t, SLOW);
      const post = (i: number) => t.app.http.inject({ method: "POST", url: endpointPath(src), payload: { i }, headers: { "content-type": "application/json" } });
      const replies = Array.from({ length: 6 }, (_, i) => post(i));
      await waitFor(async () => t.app.core.runtime.backlog.holding > 0, 10_000, "a request waiting for room");
      const started = performance.now();
      await t.close();
      closed = true;
      const statuses = (await Promise.all(replies)).map((r) => r.statusCode);
      assert.ok(statuses.includes(503), `statuses: ${statuses.join(", ")}`);
      assert.ok(statuses.every((s) => s === 200 || s === 503), `statuses: ${statuses.join(", ")}`);
      // before: the stop waited for the hold bound (a minute here)
      assert.ok(performance.now() - started < 30_000);
    } finally {
      if (!closed) await t.close();
    }
  });
});
