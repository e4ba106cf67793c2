import { describe, it } from "node:test";
import assert from "node:assert/strict";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { join } from "node:path";
import { resolveConfig } from "../src/config.ts";
import { buildApp } from "../src/app.ts";
import { createSource, eventsOf, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// Timers (docs/writing-components.md, "Timers"): intervals fire run with {timestamp, interval_seconds};
// a tick missed while the service was down runs once at start, not once per missed interval.

const TICKER = `
export default {
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } },
  run(event) { this.$emit(event); },
};`;

async function rewindTimers(t: TestApp, sourceId: string, ms: number): Promise<void> {
  if (t.storeEnv.DATABASE_URL) {
    const c = new pg.Client({ connectionString: t.storeEnv.DATABASE_URL });
    await c.connect();
    await c.query("UPDATE timers SET next_due_ms = $1 WHERE source_id = $2", [ms, sourceId]);
    await c.end();
  } else {
    const db = new Sqlite(join(t.dataDir, "tributary.db"));
    db.prepare("UPDATE timers SET next_due_ms = ? WHERE source_id = ?").run(ms, sourceId);
    db.close();
  }
}

describe("timers", () => {
  it("an interval timer runs every N seconds with the timer event", async () => {
    const t = await startApp();
    try {
      const src = await createSource(t, TICKER);
      const events = await waitEvents(t, src.id, 2, "", 5000);
      const e = events[0].event;
      assert.equal(e.interval_seconds, 1);
      assert.ok(Math.abs(e.timestamp - Date.now() / 1000) < 5);
      // a source without run emits each timer event as is (docs/writing-components.md, "The shape of a component")
      const bare = await createSource(t, `export default { props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } } };`);
      const [tick] = await waitEvents(t, bare.id, 1, "", 5000);
      assert.equal(tick.event.interval_seconds, 1);
    } finally {
      await t.close();
    }
  });

  it("a new timer source's context starts when it is deployed, so its first tick starts warm; the warm-up runs and counts nothing", async () => {
    const t = await startApp();
    try {
      const used = async () => (await t.request("GET", "/v1/users/me")).body.data.daily_invocations_used as number;
      const before = await used();
      // module code runs once per context: loadedAt is when the source's context was started
      const src = await createSource(
        t,
        `const loadedAt = Date.now();
        export default {
          props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3 } } },
          run(event) { this.$emit({ loadedAt, ranAt: Date.now() }); },
        };`,
      );
      const [tick] = await waitEvents(t, src.id, 1, "", 15_000);
      // Started at the deploy, ~3 s before the tick; without the warm-up it starts at the tick
      // itself (loadedAt = ranAt, a few ms apart). Judged by the gap alone, not by when after the
      // deploy it started: the warm-up is queued (a few starts at a time), and a loaded CI machine
      // delayed it by 0.8 and 2.2 s, which a bound on it turned into failures.
      assert.ok(tick.event.ranAt - tick.event.loadedAt >= 500, `the context started ${tick.event.ranAt - tick.event.loadedAt} ms before the tick: ${JSON.stringify(tick.event)}`);
      // every invocation counted is a tick that emitted: the warm-up is neither a run nor counted
      const off = await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: false } });
      assert.equal(off.status, 200, off.text);
      let counted = -1;
      let ticks = -2;
      await waitFor(
        async () => {
          counted = (await used()) - before;
          ticks = (await eventsOf(t, src.id)).length;
          return counted === ticks;
        },
        5000,
        "invocations counted = ticks emitted",
      ).catch(() => assert.fail(`${counted} invocations counted, ${ticks} ticks emitted`));
    } finally {
      await t.close();
    }
  });

  it("disabling stops the timer", async () => {
    const t = await startApp();
    try {
      const src = await createSource(t, TICKER);
      await waitEvents(t, src.id, 1, "", 20_000);
      await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: false } });
      await new Promise((r) => setTimeout(r, 300));
      const count = (await eventsOf(t, src.id)).length;
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await eventsOf(t, src.id)).length, count);
    } finally {
      await t.close();
    }
  });

  it("a tick missed while the service was down runs once at start", async () => {
    const first = await startApp();
    const src = await createSource(first, TICKER, { configured_props: { timer: { intervalSeconds: 3600 } } });
    await first.request("POST", `/v1/sources/${src.id}/run`, { body: {} });
    await waitEvents(first, src.id, 1);
    // close without dropping the data, then pretend the next tick was due ten minutes ago
    await first.app.close();
    await rewindTimers(first, src.id, Date.now() - 10 * 60_000);
    const config = resolveConfig({
      TRIBUTARY_DATA_DIR: first.dataDir,
      TRIBUTARY_ADMIN_KEY: first.adminKey,
      ...first.storeEnv,
    });
    const second = await buildApp(config, { logger: false });
    const t2: TestApp = { ...first, app: second, request: async (m, u, o) => {
      const res = await second.http.inject({ method: m as "GET", url: u, headers: { authorization: `Bearer ${first.adminKey}`, ...(o?.body ? { "content-type": "application/json" } : {}) }, payload: o?.body ? JSON.stringify(o.body) : undefined });
      return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined, text: res.body };
    } };
    try {
      const events = await waitEvents(t2, src.id, 2, "", 5000);
      await new Promise((r) => setTimeout(r, 1000));
      const after = await eventsOf(t2, src.id);
      assert.equal(after.length, 2, "exactly one catch-up tick, not one per missed interval");
      assert.equal(events[0].event.interval_seconds, 3600);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe("timers across an update that keeps them", () => {
  const SLOW_TICKER = `
export default {
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 3600 } }, label: { type: "string", optional: true } },
  run(event) { this.$emit(event); },
};`;

  it("a PUT that leaves the timer as it was keeps its next due time; one that changes it starts anew", async () => {
    const t = await startApp();
    try {
      const due = (id: string) => t.app.store.events.timer(id);
      const src = await createSource(t, SLOW_TICKER);
      const first = await due(src.id);
      assert.ok(first !== undefined);
      // a few ms later, so that a schedule started anew would differ
      await waitFor(async () => Date.now() > first - 3600_000 + 5 || undefined, 2000, "a moment to pass");
      assert.equal((await t.request("PUT", `/v1/sources/${src.id}`, { body: { configured_props: { label: "renamed" } } })).status, 200);
      assert.equal(await due(src.id), first, "a source's other prop changed: same schedule");
      assert.equal((await t.request("PUT", `/v1/sources/${src.id}`, { body: { configured_props: { timer: { intervalSeconds: 7200 } } } })).status, 200);
      assert.ok((await due(src.id))! > first, "a new interval starts from now");

      const step = { name: "s", code: "export default { async run() {} }" };
      const made = await t.request("POST", "/v1/workflows", { body: { name: "w", steps: [step], trigger: { type: "timer", interval_seconds: 3600 } } });
      assert.equal(made.status, 200, made.text);
      const w = made.body.data.id as string;
      const wFirst = await due(w);
      await waitFor(async () => Date.now() > wFirst! + 5 - 3600_000 || undefined, 2000, "a moment to pass");
      assert.equal((await t.request("PUT", `/v1/workflows/${w}`, { body: { name: "w2" } })).status, 200);
      assert.equal(await due(w), wFirst, "a workflow renamed: same schedule");
      assert.equal((await t.request("PUT", `/v1/workflows/${w}`, { body: { trigger: { type: "timer", interval_seconds: 60 } } })).status, 200);
      assert.notEqual(await due(w), wFirst, "a new interval starts from now");
    } finally {
      await t.close();
    }
  });
});

describe("timer sources: settings", () => {
  it("TRIBUTARY_RUNNER_WARM_SOURCES (warm sources per runner) is a whole number >= 1, 2,500 by default", () => {
    assert.equal(resolveConfig({}).runnerWarmSources, 2500);
    assert.equal(resolveConfig({ TRIBUTARY_RUNNER_WARM_SOURCES: "6000" }).runnerWarmSources, 6000);
    for (const bad of ["0", "lots", "1.5"]) {
      assert.throws(() => resolveConfig({ TRIBUTARY_RUNNER_WARM_SOURCES: bad }), /TRIBUTARY_RUNNER_WARM_SOURCES/);
    }
  });
});

// A tick's run that the test holds open: its component fetches a local server, which keeps the
// request until the test releases it. So the test knows when a run started and decides when it
// ends, and can change the source while a tick runs.
async function holdingServer() {
  const { createServer } = await import("node:http");
  const seen: { v: string; ts: number }[] = [];
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://x").searchParams;
    seen.push({ v: q.get("v") ?? "", ts: Number(q.get("ts")) });
    held.push(() => res.end("ok"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const hostPort = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    hostPort,
    seen,
    release: () => held.splice(0).forEach((end) => end()),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const held = (hostPort: string) => `
export default {
  props: {
    timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } },
    v: { type: "string", default: "v1" },
  },
  async run(event) {
    await fetch("http://${hostPort}/?v=" + this.v + "&ts=" + event.timestamp);
    this.$emit({ v: this.v, ts: event.timestamp });
  },
};`;

describe("timers while a tick runs", () => {
  it("a source changed while its tick runs gets no tick owed to its old version; no due time ticks twice", async () => {
    const s = await holdingServer();
    const t = await startApp({ TRIBUTARY_FETCH_ALLOW: s.hostPort });
    try {
      const src = await createSource(t, held(s.hostPort));
      await waitFor(async () => s.seen.length >= 1, 10_000, "the first tick's run");
      const startedAt = Date.now();
      // the next tick comes due while the first still runs: it is owed, to run when that ends
      await waitFor(async () => Date.now() - startedAt > 1300, 5000, "a second due time to pass");
      const put = await t.request("PUT", `/v1/sources/${src.id}`, { body: { configured_props: { v: "v2" } } });
      assert.equal(put.status, 200, put.text);
      s.release();
      await waitFor(async () => (s.release(), s.seen.some((x) => x.v === "v2")), 10_000, "a tick of the new version");
      // the old version ran only the tick under way when it was changed (before: the owed one too)
      assert.deepEqual(s.seen.filter((x) => x.v === "v1").length, 1, JSON.stringify(s.seen));
      const stamps = s.seen.map((x) => x.ts);
      assert.equal(new Set(stamps).size, stamps.length, `a due time ran twice: ${JSON.stringify(s.seen)}`);
    } finally {
      s.release();
      await t.close();
      await s.close();
    }
  });
});
