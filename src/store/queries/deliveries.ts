import type { Kysely, Selectable } from "kysely";
import type { Database, DeliveriesTable } from "../schema.ts";
import type { DeliveryRow, DeliveryStore } from "../port.ts";

export function deliveryRow(r: Selectable<DeliveriesTable>): DeliveryRow {
  return {
    id: r.id,
    user_id: r.user_id,
    emitter_id: r.emitter_id,
    listener_id: r.listener_id,
    event_name: r.event_name,
    event_id: r.event_id,
    payload: r.payload,
    hops: Number(r.hops),
    attempts: Number(r.attempts),
    next_at_ms: Number(r.next_at_ms),
    created_at_ms: Number(r.created_at_ms),
  };
}

export function deliveryQueries(db: Kysely<Database>): DeliveryStore {
  return {
    async pending() {
      const rows = await db.selectFrom("deliveries").selectAll().orderBy("seq", "asc").execute();
      return rows.map(deliveryRow);
    },
    async listeners() {
      const rows = await db.selectFrom("deliveries").select("listener_id").distinct().execute();
      return rows.map((r) => r.listener_id);
    },
    async count() {
      const r = await db.selectFrom("deliveries").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async pendingFor(listenerId, limit) {
      const rows = await db
        .selectFrom("deliveries")
        .selectAll()
        .where("listener_id", "=", listenerId)
        .orderBy("seq", "asc")
        .limit(limit)
        .execute();
      return rows.map(deliveryRow);
    },
    async retry(id, attempts, nextAtMs) {
      await db.updateTable("deliveries").set({ attempts, next_at_ms: nextAtMs }).where("id", "=", id).execute();
    },
    async dropOldest(listenerId, keep, except) {
      const r = await db.selectFrom("deliveries").select((eb) => eb.fn.countAll().as("n")).where("listener_id", "=", listenerId).executeTakeFirstOrThrow();
      const over = Number(r.n) - keep;
      if (over <= 0) return [];
      const oldest = await db
        .selectFrom("deliveries")
        .select("id")
        .where("listener_id", "=", listenerId)
        .where("id", "!=", except)
        .orderBy("seq", "asc")
        .limit(over)
        .execute();
      const ids = oldest.map((o) => o.id);
      if (ids.length > 0) await db.deleteFrom("deliveries").where("id", "in", ids).execute();
      return ids;
    },
    async deleteListener(listenerId) {
      const r = await db.deleteFrom("deliveries").where("listener_id", "=", listenerId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
