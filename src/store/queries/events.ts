import type { Kysely, Selectable } from "kysely";
import type { Database, EventsTable } from "../schema.ts";
import type { EmitterStateRow, EventRow, EventStore, InboxRow } from "../port.ts";
import { commitBatch, subtractFromStreamCount } from "./commit/commit.ts";
import { insertRows, type Dialect } from "./raw-rows.ts";
import { atLeast, atMost, newerThan, olderThan } from "./event-keys.ts";
import { errorSummaries } from "./error-summaries.ts";

const INBOX_CHUNK = 64;
const INBOX_COLUMNS = ["source_id", "kind", "event", "received_at_ms"] as const satisfies readonly (keyof InboxRow)[];

/** fn in a transaction: this one if db is one already (a caller's Store.transaction), else a new one */
function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

function toRow(r: Selectable<EventsTable>): EventRow {
  return {
    emitter_id: r.emitter_id,
    user_id: r.user_id,
    event_name: r.event_name,
    ms: Number(r.ms),
    n: Number(r.n),
    emit_id: r.emit_id,
    indexed_at_ms: Number(r.indexed_at_ms),
    payload: r.payload,
    size: Number(r.size),
    meta: JSON.parse(r.meta),
  };
}

export function eventQueries(db: Kysely<Database>, dialect: Dialect): EventStore {
  const stream = (emitterId: string, eventName: string) =>
    db.selectFrom("events").where("emitter_id", "=", emitterId).where("event_name", "=", eventName);
  return {
    errorSummaries: (userId, emitterIds) => errorSummaries(db, dialect, userId, emitterIds),
    async page(emitterId, eventName, req) {
      let q = stream(emitterId, eventName).selectAll();
      if (req.after) q = q.where((eb) => olderThan(eb, req.after!)).orderBy("ms", "desc").orderBy("n", "desc");
      else if (req.before) q = q.where((eb) => newerThan(eb, req.before!)).orderBy("ms", "asc").orderBy("n", "asc");
      else q = q.orderBy("ms", "desc").orderBy("n", "desc");
      const rows = (await q.limit(req.limit).execute()).map(toRow);
      if (req.before) rows.reverse();
      // the stream's count is kept by every write (migration 011): one row, however long the history
      const counted = await db
        .selectFrom("stream_counts")
        .select("total")
        .where("emitter_id", "=", emitterId)
        .where("event_name", "=", eventName)
        .executeTakeFirst();
      return { items: rows, total: counted ? Number(counted.total) : 0 };
    },
    async since(emitterId, eventName, from, limit) {
      const rows = await stream(emitterId, eventName)
        .selectAll()
        .where((eb) => newerThan(eb, from))
        .orderBy("ms", "asc")
        .orderBy("n", "asc")
        .limit(limit)
        .execute();
      return rows.map(toRow);
    },
    // Stream by stream (the emitter's streams are its stream_counts rows), so each count loses
    // exactly what its delete removed; the counts are written after every delete, as the commit
    // does, so the two never wait on each other's rows in opposite orders.
    deleteRange: (emitterId, start, end, upTo) =>
      inTransaction(db, async (trx) => {
        const streams = await trx.selectFrom("stream_counts").select("event_name").where("emitter_id", "=", emitterId).orderBy("event_name").execute();
        const removed: Array<[string, number]> = [];
        for (const { event_name } of streams) {
          let q = trx
            .deleteFrom("events")
            .where("emitter_id", "=", emitterId)
            .where("event_name", "=", event_name)
            .where((eb) => atMost(eb, upTo));
          if (start) q = q.where((eb) => atLeast(eb, start));
          if (end) q = q.where((eb) => atMost(eb, end));
          const r = await q.executeTakeFirst();
          removed.push([event_name, Number(r.numDeletedRows)]);
        }
        for (const [name, n] of removed) await subtractFromStreamCount(trx, emitterId, name, n);
        return removed.reduce((sum, [, n]) => sum + n, 0);
      }),
    async deleteEmitter(emitterId) {
      await db.deleteFrom("events").where("emitter_id", "=", emitterId).execute();
      await db.deleteFrom("stream_counts").where("emitter_id", "=", emitterId).execute();
      await db.deleteFrom("emitter_state").where("emitter_id", "=", emitterId).execute();
      await db.deleteFrom("inbox").where("source_id", "=", emitterId).execute();
      await db.deleteFrom("timers").where("source_id", "=", emitterId).execute();
      await db.deleteFrom("error_notices").where("emitter_id", "=", emitterId).execute();
    },
    async state(emitterId) {
      const r = await db.selectFrom("emitter_state").selectAll().where("emitter_id", "=", emitterId).executeTakeFirst();
      if (!r) return undefined;
      const row: EmitterStateRow = {
        emitter_id: r.emitter_id,
        user_id: r.user_id,
        db: JSON.parse(r.db),
        dedupe: JSON.parse(r.dedupe),
        last_ms: Number(r.last_ms),
        last_n: Number(r.last_n),
      };
      return row;
    },
    async inboxAdd(rows) {
      if (rows.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        const seqs: number[] = [];
        // Multi-row inserts in fixed chunks (few distinct prepared statements). Both SQLite and
        // PostgreSQL return RETURNING rows in VALUES order for a plain INSERT ... VALUES.
        for (let i = 0; i < rows.length; i += INBOX_CHUNK) {
          const out = await insertRows(trx, dialect, "inbox", INBOX_COLUMNS, rows.slice(i, i + INBOX_CHUNK), 'returning "seq"');
          for (const r of out) seqs.push(Number(r.seq));
        }
        return seqs;
      });
    },
    async inboxPending() {
      const rows = await db.selectFrom("inbox").selectAll().orderBy("seq", "asc").execute();
      return rows.map(inboxRow);
    },
    async inboxSources() {
      const rows = await db.selectFrom("inbox").select("source_id").distinct().execute();
      return rows.map((r) => r.source_id);
    },
    async inboxCount() {
      const r = await db.selectFrom("inbox").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async backlogCount() {
      // Rows of disabled emitters wait for their owner and are not counted (core/flow/backlog.ts).
      // The subquery is evaluated once; it reads the emitters tables, which are small next to a
      // backlog, and this runs at most twice a second.
      const r = await db
        .selectFrom("inbox")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("source_id", "not in", (eb) =>
          eb
            .selectFrom("sources")
            .select("id")
            .where("active", "=", 0)
            .unionAll(eb.selectFrom("workflows").select("id").where("active", "=", 0)),
        )
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async inboxFor(sourceId, limit, afterSeq = 0) {
      const rows = await db
        .selectFrom("inbox")
        .selectAll()
        .where("source_id", "=", sourceId)
        .where("seq", ">", afterSeq)
        .orderBy("seq", "asc")
        .limit(limit)
        .execute();
      return rows.map(inboxRow);
    },
    async timer(sourceId) {
      const r = await db.selectFrom("timers").select("next_due_ms").where("source_id", "=", sourceId).executeTakeFirst();
      return r ? Number(r.next_due_ms) : undefined;
    },
    async setTimer(sourceId, nextDueMs) {
      await db
        .insertInto("timers")
        .values({ source_id: sourceId, next_due_ms: nextDueMs })
        .onConflict((oc) => oc.column("source_id").doUpdateSet({ next_due_ms: nextDueMs }))
        .execute();
    },
    commit: (batch) => db.transaction().execute((trx) => commitBatch(trx, batch, dialect)),
  };
}

function inboxRow(r: { seq: number | string | bigint; source_id: string; kind: string; event: string; received_at_ms: number | string | bigint }): InboxRow {
  return { seq: Number(r.seq), source_id: r.source_id, kind: r.kind, event: r.event, received_at_ms: Number(r.received_at_ms) };
}
