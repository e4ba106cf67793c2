import type { Kysely, Selectable } from "kysely";
import type { Database, EventsTable } from "../schema.ts";
import type { EmitterStateRow, EventRow, EventStore, InboxRow } from "../port.ts";
import { commitBatch } from "./commit.ts";
import { atLeast, atMost, newerThan, olderThan } from "./event-keys.ts";

const INBOX_CHUNK = 64;


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

export function eventQueries(db: Kysely<Database>): EventStore {
  const stream = (emitterId: string, eventName: string) =>
    db.selectFrom("events").where("emitter_id", "=", emitterId).where("event_name", "=", eventName);
  return {
    async page(emitterId, eventName, req) {
      let q = stream(emitterId, eventName).selectAll();
      if (req.after) q = q.where((eb) => olderThan(eb, req.after!)).orderBy("ms", "desc").orderBy("n", "desc");
      else if (req.before) q = q.where((eb) => newerThan(eb, req.before!)).orderBy("ms", "asc").orderBy("n", "asc");
      else q = q.orderBy("ms", "desc").orderBy("n", "desc");
      const rows = (await q.limit(req.limit).execute()).map(toRow);
      if (req.before) rows.reverse();
      const counted = await stream(emitterId, eventName)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return { items: rows, total: Number(counted.n) };
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
    async deleteRange(emitterId, start, end, upTo) {
      let q = db
        .deleteFrom("events")
        .where("emitter_id", "=", emitterId)
        .where((eb) => atMost(eb, upTo));
      if (start) q = q.where((eb) => atLeast(eb, start));
      if (end) q = q.where((eb) => atMost(eb, end));
      const r = await q.executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteEmitter(emitterId) {
      await db.deleteFrom("events").where("emitter_id", "=", emitterId).execute();
      await db.deleteFrom("emitter_state").where("emitter_id", "=", emitterId).execute();
      await db.deleteFrom("inbox").where("source_id", "=", emitterId).execute();
      await db.deleteFrom("timers").where("source_id", "=", emitterId).execute();
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
          const out = await trx.insertInto("inbox").values(rows.slice(i, i + INBOX_CHUNK)).returning("seq").execute();
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
    async inboxFor(sourceId, limit) {
      const rows = await db.selectFrom("inbox").selectAll().where("source_id", "=", sourceId).orderBy("seq", "asc").limit(limit).execute();
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
    commit: (batch) => db.transaction().execute((trx) => commitBatch(trx, batch)),
  };
}

function inboxRow(r: { seq: number | string | bigint; source_id: string; kind: string; event: string; received_at_ms: number | string | bigint }): InboxRow {
  return { seq: Number(r.seq), source_id: r.source_id, kind: r.kind, event: r.event, received_at_ms: Number(r.received_at_ms) };
}
