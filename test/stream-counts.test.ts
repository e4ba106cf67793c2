import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { createSource, eventsOf, postgresFor, restart, startApp, waitFor, type TestApp } from "./helpers.ts";
import { eventsSchema } from "../src/store/migrations/002_events.ts";
import { streamCountsSchema } from "../src/store/migrations/011_stream_counts.ts";

// total_count of an event page comes from a per-stream counter (migration 011) kept in the
// transaction of every write, not from count(*). These tests hold it to the real count through
// everything that adds or removes events, comparing the counter table with count(*) directly.

const EMITTER = `
export default {
  run(event) {
    for (const e of (event && event.emits) || []) this.$emit(e.event, e.meta);
  },
};`;

const RETENTION = 30;

/** a second connection to the app's store, read-only use: the counter rows against count(*) */
async function storeReader(t: TestApp): Promise<{ query(sql: string): Promise<any[]>; close(): Promise<void> }> {
  if (t.storeEnv.DATABASE_URL) {
    const c = new pg.Client({ connectionString: t.storeEnv.DATABASE_URL });
    await c.connect();
    return { query: async (q) => (await c.query(q)).rows, close: () => c.end() };
  }
  const db = new Sqlite(join(t.dataDir, "tributary.db"), { readonly: true });
  return { query: async (q) => db.prepare(q).all(), close: async () => void db.close() };
}

/** streams whose counter differs from count(*) (a missing row counts as 0, either way) */
async function mismatches(t: TestApp): Promise<string[]> {
  const r = await storeReader(t);
  try {
    const counted = await r.query(`select emitter_id, event_name, count(*) as n from events group by emitter_id, event_name`);
    const kept = await r.query(`select emitter_id, event_name, total from stream_counts`);
    const real = new Map(counted.map((x) => [`${x.emitter_id}/${x.event_name}`, Number(x.n)]));
    const counter = new Map(kept.map((x) => [`${x.emitter_id}/${x.event_name}`, Number(x.total)]));
    const out: string[] = [];
    for (const k of new Set([...real.keys(), ...counter.keys()])) {
      if ((real.get(k) ?? 0) !== (counter.get(k) ?? 0)) out.push(`${k}: counter ${counter.get(k)}, count(*) ${real.get(k)}`);
    }
    return out;
  } finally {
    await r.close();
  }
}

async function counterRows(t: TestApp, emitterId: string): Promise<number> {
  const r = await storeReader(t);
  try {
    return (await r.query(`select emitter_id from stream_counts where emitter_id = '${emitterId}'`)).length;
  } finally {
    await r.close();
  }
}

async function totalCount(t: TestApp, id: string, eventName = ""): Promise<number> {
  const q = eventName ? `&event_name=${encodeURIComponent(eventName)}` : "";
  const res = await t.request("GET", `/v1/sources/${id}/event_summaries?limit=1${q}`);
  assert.equal(res.status, 200, res.text);
  return res.body.page_info.total_count;
}

async function run(t: TestApp, id: string, events: unknown[], name?: string) {
  const res = await t.request("POST", `/v1/sources/${id}/run`, {
    body: { event: { emits: events.map((event) => ({ event, ...(name ? { meta: { name } } : {}) })) } },
  });
  assert.equal(res.status, 202, res.text);
}

const settled = (t: TestApp, id: string, expected: number, eventName = "") =>
  waitFor(async () => (await totalCount(t, id, eventName)) === expected, 10_000, `total_count ${expected} on ${id}/${eventName}`);

describe("total_count: a counter per stream, exact", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_EVENT_RETENTION: String(RETENTION) })));
  after(() => t.close());

  it("many emits in one run, several streams, and many runs committed together", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, Array.from({ length: 25 }, (_, i) => i));
    await run(t, src.id, [1, 2, 3, 4, 5], "other");
    await settled(t, src.id, 25);
    await settled(t, src.id, 5, "other");
    // runs accepted together share group commits
    const many = await createSource(t, EMITTER);
    await Promise.all(Array.from({ length: 6 }, (_, i) => run(t, many.id, [i, i, i, i])));
    await settled(t, many.id, 24);
    assert.equal((await eventsOf(t, many.id)).length, 24);
    assert.deepEqual(await mismatches(t), []);
  });

  it("retention trims take off exactly what they delete", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, Array.from({ length: 25 }, (_, i) => i));
    await settled(t, src.id, 25);
    await run(t, src.id, Array.from({ length: 20 }, (_, i) => 100 + i)); // 45 emitted, 30 kept
    await waitFor(async () => (await eventsOf(t, src.id))[0]?.event === 119, 10_000, "the last emit");
    assert.equal(await totalCount(t, src.id), RETENTION);
    await Promise.all(Array.from({ length: 8 }, (_, i) => run(t, src.id, Array.from({ length: 9 }, () => i))));
    await waitFor(async () => (await mismatches(t)).length === 0 && (await totalCount(t, src.id)) === RETENTION, 10_000, "trimmed to retention");
    assert.equal((await eventsOf(t, src.id)).length, RETENTION);
  });

  it("DELETE of a range, of one id, and of everything", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, Array.from({ length: 10 }, (_, i) => i));
    await run(t, src.id, [1, 2, 3], "side");
    await settled(t, src.id, 10);
    const ids = (await eventsOf(t, src.id)).map((i) => i.id).reverse(); // oldest first
    const del = async (q: string) => assert.equal((await t.request("DELETE", `/v1/sources/${src.id}/events${q}`)).status, 202);
    await del(`?start_id=${ids[2]}&end_id=${ids[5]}`);
    await settled(t, src.id, 6);
    await del(`?start_id=${ids[8]}&end_id=${ids[8]}`);
    await settled(t, src.id, 5);
    assert.equal((await eventsOf(t, src.id)).length, 5);
    assert.deepEqual(await mismatches(t), []);
    await del("");
    await settled(t, src.id, 0);
    await settled(t, src.id, 0, "side");
    assert.deepEqual(await mismatches(t), []);
    // emits after a deletion count from what is left
    await run(t, src.id, [7, 8]);
    await settled(t, src.id, 2);
  });

  it("deleting the source drops its counters with its events", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, [1, 2, 3]);
    await run(t, src.id, [4], "other");
    await settled(t, src.id, 3);
    await settled(t, src.id, 1, "other");
    assert.equal(await counterRows(t, src.id), 2);
    assert.equal((await t.request("DELETE", `/v1/sources/${src.id}`)).status, 200);
    assert.equal(await counterRows(t, src.id), 0);
    assert.deepEqual(await mismatches(t), []);
  });

  it("the counts survive a restart and go on from there", async () => {
    const src = await createSource(t, EMITTER);
    await run(t, src.id, Array.from({ length: 12 }, (_, i) => i));
    await settled(t, src.id, 12);
    await t.app.close();
    const again = await restart(t, { TRIBUTARY_EVENT_RETENTION: String(RETENTION) });
    try {
      assert.equal(await totalCount(again, src.id), 12);
      await run(again, src.id, Array.from({ length: 25 }, (_, i) => i));
      await settled(again, src.id, RETENTION);
      assert.deepEqual(await mismatches(again), []);
    } finally {
      await again.close();
    }
  });
});

describe("migration 011 fills the counters from the events stored before it", () => {
  it("one row per stream with its count", async () => {
    const postgres = await postgresFor();
    const db = new Kysely<any>({
      dialect: postgres
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.env.DATABASE_URL, max: 1 }) })
        : new SqliteDialect({ database: new Sqlite(":memory:") }),
    });
    try {
      await eventsSchema(postgres ? "postgres" : "sqlite").up(db);
      const event = (emitter_id: string, event_name: string, n: number) => ({
        emitter_id, user_id: "u_1", event_name, ms: 1000, n, emit_id: `e${n}`, indexed_at_ms: 1000, payload: "1", size: 1, meta: "{}",
      });
      await db.insertInto("events").values([
        ...Array.from({ length: 5 }, (_, i) => event("dc_a", "", i)),
        ...Array.from({ length: 2 }, (_, i) => event("dc_a", "$errors", i)),
        event("dc_b", "", 0),
      ]).execute();
      await streamCountsSchema().up(db);
      const rows = await db.selectFrom("stream_counts").selectAll().orderBy("emitter_id").orderBy("event_name").execute();
      assert.deepEqual(rows.map((r) => [r.emitter_id, r.event_name, r.user_id, Number(r.total)]), [
        ["dc_a", "", "u_1", 5],
        ["dc_a", "$errors", "u_1", 2],
        ["dc_b", "", "u_1", 1],
      ]);
    } finally {
      await db.destroy();
      await postgres?.drop();
    }
  });
});
