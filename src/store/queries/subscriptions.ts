import type { Kysely } from "kysely";
import type { Database } from "../schema.ts";
import type { SubscriptionStore } from "../port.ts";

const num = <T extends { created_at: number | string }>(r: T): T => ({ ...r, created_at: Number(r.created_at) });

export function subscriptionQueries(db: Kysely<Database>): SubscriptionStore {
  const subCols = ["id", "user_id", "emitter_id", "listener_id", "event_name", "created_at"] as const;
  const autoCols = ["id", "user_id", "event_name", "listener_id", "created_at"] as const;
  return {
    async insert(s) {
      await db.insertInto("subscriptions").values(s).execute();
    },
    async find(userId, emitterId, listenerId, eventName) {
      const r = await db
        .selectFrom("subscriptions")
        .select(subCols)
        .where("user_id", "=", userId)
        .where("emitter_id", "=", emitterId)
        .where("listener_id", "=", listenerId)
        .where("event_name", "=", eventName)
        .executeTakeFirst();
      return r && num(r);
    },
    async listByUser(userId) {
      const rows = await db
        .selectFrom("subscriptions")
        .select(subCols)
        .where("user_id", "=", userId)
        .orderBy("seq", "desc")
        .execute();
      return rows.map(num);
    },
    async delete(userId, emitterId, listenerId, eventName) {
      let q = db
        .deleteFrom("subscriptions")
        .where("user_id", "=", userId)
        .where("emitter_id", "=", emitterId)
        .where("listener_id", "=", listenerId);
      if (eventName !== undefined) q = q.where("event_name", "=", eventName);
      const r = await q.executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteNaming(id) {
      const r = await db
        .deleteFrom("subscriptions")
        .where((eb) => eb.or([eb("emitter_id", "=", id), eb("listener_id", "=", id)]))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async insertAuto(a) {
      await db.insertInto("auto_subscriptions").values(a).execute();
    },
    async findAuto(userId, eventName, listenerId) {
      const r = await db
        .selectFrom("auto_subscriptions")
        .select(autoCols)
        .where("user_id", "=", userId)
        .where("event_name", "=", eventName)
        .where("listener_id", "=", listenerId)
        .executeTakeFirst();
      return r && num(r);
    },
    async listAuto(userId) {
      const rows = await db
        .selectFrom("auto_subscriptions")
        .select(autoCols)
        .where("user_id", "=", userId)
        .orderBy("seq", "asc")
        .execute();
      return rows.map(num);
    },
    async deleteAuto(userId, id) {
      const r = await db.deleteFrom("auto_subscriptions").where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async deleteAutoNaming(listenerId) {
      const r = await db.deleteFrom("auto_subscriptions").where("listener_id", "=", listenerId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
