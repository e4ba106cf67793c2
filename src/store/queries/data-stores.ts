import type { Generated, Kysely, Selectable } from "kysely";
import type { Database } from "../schema.ts";
import type { DataStoreRow, DataStoreStore } from "../port.ts";
import { pageRows } from "./page.ts";

// Data stores (migration 013): the stores themselves. Their records are data-store-records.ts.

export interface DataStoresTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  name: string;
  /** record rows held, expired ones not yet removed included (kept exact by every write) */
  record_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface DataStoreRecordsTable {
  store_id: string;
  key: string;
  /** JSON text */
  value: string;
  expires_at_ms: number | null;
}

type Tables = { data_stores: DataStoresTable; data_store_records: DataStoreRecordsTable };
export type DataStoreDatabase = Database & Tables;

// The two tables are typed here, beside their queries, rather than in the shared schema.ts.
export const withDataStoreTables = (db: Kysely<Database>): Kysely<DataStoreDatabase> => db.$extendTables<Tables>();

/** The stores' expired records not yet removed, by store: what their live counts leave out. */
export async function expiredCounts(db: Kysely<DataStoreDatabase>, storeIds: string[], nowMs: number): Promise<Map<string, number>> {
  if (storeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("data_store_records")
    .select((eb) => ["store_id", eb.fn.countAll<number>().as("n")])
    .where("store_id", "in", storeIds)
    .where("expires_at_ms", "is not", null)
    .where("expires_at_ms", "<=", nowMs)
    .groupBy("store_id")
    .execute();
  return new Map(rows.map((r) => [r.store_id, Number(r.n)]));
}

/** Deletes every data store of the user, records included (the user is being deleted: users.ts). */
export async function deleteUserDataStores(root: Kysely<Database>, userId: string): Promise<void> {
  const db = withDataStoreTables(root);
  // the stores' rows first, like every writer of their records (no deadlock on PostgreSQL)
  const gone = await db.deleteFrom("data_stores").where("user_id", "=", userId).returning("id").execute();
  for (const { id } of gone) await db.deleteFrom("data_store_records").where("store_id", "=", id).execute();
}

export function dataStoreQueries(root: Kysely<Database>): DataStoreStore {
  const db = withDataStoreTables(root);
  const withKeys = async (rows: Selectable<DataStoresTable>[], nowMs: number): Promise<DataStoreRow[]> => {
    const expired = await expiredCounts(db, rows.map((r) => r.id), nowMs);
    return rows.map((r) => ({
      id: r.id,
      user_id: r.user_id,
      name: r.name,
      created_at: Number(r.created_at),
      updated_at: Number(r.updated_at),
      keys: Number(r.record_count) - (expired.get(r.id) ?? 0),
    }));
  };
  return {
    async insert(s) {
      await db
        .insertInto("data_stores")
        .values({ id: s.id, user_id: s.user_id, name: s.name, created_at: s.created_at, updated_at: s.updated_at })
        .execute();
    },
    async byId(id, nowMs) {
      const r = await db.selectFrom("data_stores").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? (await withKeys([r], nowMs))[0] : undefined;
    },
    async ownersOf(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom("data_stores").select(["id", "user_id"]).where("id", "in", [...ids]).execute();
      return new Map(rows.map((r) => [r.id, r.user_id]));
    },
    async rename(id, name, updatedAt) {
      await db.updateTable("data_stores").set({ name, updated_at: updatedAt }).where("id", "=", id).execute();
    },
    async list(userId, page, nowMs) {
      // pageRows knows the shared tables by name; this one has the same seq/id/user_id shape
      const p = await pageRows<Selectable<DataStoresTable>>(db, "data_stores" as Parameters<typeof pageRows>[1], userId, page);
      return p && { items: await withKeys(p.items, nowMs), total: p.total };
    },
    async delete(id) {
      // the store's row first: writers of its records lock it first too (no deadlock on PostgreSQL)
      const r = await db.deleteFrom("data_stores").where("id", "=", id).executeTakeFirst();
      await db.deleteFrom("data_store_records").where("store_id", "=", id).execute();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
