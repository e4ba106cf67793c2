import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "../schema.ts";
import type { DataStoreRecordRow, DataStoreRecordStore } from "../port.ts";
import { expiredCounts, withDataStoreTables, type DataStoreDatabase } from "./data-stores.ts";

// A data store's records (migration 013). Reads filter expired records out; writes lock the
// store's row, remove a batch of its expired records, write, and keep its record_count exact.

/** keys bound in one statement, rows in one insert (values are up to 256 KiB each) */
const KEYS_PER_STATEMENT = 500;
const ROWS_PER_INSERT = 100;
/** expired records a write removes from its store first; the periodic sweep does the rest */
const PURGE_BATCH = 1000;

type Eb = ExpressionBuilder<DataStoreDatabase, "data_store_records">;
const live = (nowMs: number) => (eb: Eb) => eb.or([eb("expires_at_ms", "is", null), eb("expires_at_ms", ">", nowMs)]);

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const toRow = (r: { key: string; value: string; expires_at_ms: number | string | null }): DataStoreRecordRow => ({
  key: r.key,
  value: r.value,
  expires_at_ms: r.expires_at_ms === null ? null : Number(r.expires_at_ms),
});

/**
 * The least string above every string that starts with `prefix`, in code point order (which is
 * UTF-8 byte order, the keys' order): a prefix is the key range [prefix, prefixEnd). Undefined
 * when there is none (a prefix of U+10FFFF only).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    let last = points.pop()! + 1;
    if (last === 0xd800) last = 0xe000; // surrogates are not characters
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last);
  }
  return undefined;
}

/** One touched key while ops are applied: `value` undefined while the committed value stands. */
interface KeyState {
  present: boolean;
  value?: string;
  exp: number | null;
}
const GONE: KeyState = { present: false, value: undefined, exp: null };

export function dataStoreRecordQueries(root: Kysely<Database>): DataStoreRecordStore {
  const db = withDataStoreTables(root);
  const inStore = (storeId: string) => db.selectFrom("data_store_records").where("store_id", "=", storeId);
  const inPrefix = <Q extends { where: (...a: any[]) => Q }>(q: Q, prefix: string | undefined): Q => {
    if (!prefix) return q;
    const end = prefixEnd(prefix);
    q = q.where("key", ">=", prefix);
    return end === undefined ? q : q.where("key", "<", end);
  };

  /** locks the store's row (writers of one store take turns); its record_count, or undefined: no store */
  const lock = async (storeId: string) => {
    const r = await db
      .updateTable("data_stores")
      .set((eb) => ({ record_count: eb.ref("record_count") }))
      .where("id", "=", storeId)
      .returning("record_count")
      .executeTakeFirst();
    return r && Number(r.record_count);
  };
  const setCount = (storeId: string, rows: number) =>
    db.updateTable("data_stores").set({ record_count: rows }).where("id", "=", storeId).execute();
  const removeExpired = async (storeId: string, nowMs: number, limit: number) => {
    const expired = inStore(storeId).select("key").where("expires_at_ms", "is not", null).where("expires_at_ms", "<=", nowMs).limit(limit);
    const r = await db.deleteFrom("data_store_records").where("store_id", "=", storeId).where("key", "in", expired).executeTakeFirst();
    return Number(r.numDeletedRows);
  };
  /** the physical rows of these keys (expired ones too): key -> expires_at_ms */
  const existing = async (storeId: string, keys: string[]) => {
    const out = new Map<string, number | null>();
    for (const part of chunks(keys, KEYS_PER_STATEMENT)) {
      const rows = await inStore(storeId).select(["key", "expires_at_ms"]).where("key", "in", part).execute();
      for (const r of rows) out.set(r.key, r.expires_at_ms === null ? null : Number(r.expires_at_ms));
    }
    return out;
  };

  return {
    async get(storeId, key, nowMs) {
      const r = await inStore(storeId).select(["key", "value", "expires_at_ms"]).where("key", "=", key).where(live(nowMs)).executeTakeFirst();
      return r && toRow(r);
    },
    async getMany(storeId, keys, nowMs) {
      const out = new Map<string, DataStoreRecordRow>();
      for (const part of chunks([...new Set(keys)], KEYS_PER_STATEMENT)) {
        const rows = await inStore(storeId).select(["key", "value", "expires_at_ms"]).where("key", "in", part).where(live(nowMs)).execute();
        for (const r of rows) out.set(r.key, toRow(r));
      }
      return out;
    },
    async keys(storeId, nowMs, page) {
      let q = inStore(storeId).select("key").where(live(nowMs)).orderBy("key");
      if (page?.afterKey !== undefined) q = q.where("key", ">", page.afterKey);
      if (page) q = q.limit(page.limit);
      const rows = await q.execute();
      return rows.map((r) => r.key);
    },
    async count(storeId, nowMs, prefix) {
      if (!prefix) {
        // the kept count less the expired rows not yet removed: no scan of the store
        const s = await db.selectFrom("data_stores").select("record_count").where("id", "=", storeId).executeTakeFirst();
        if (!s) return 0;
        return Number(s.record_count) - ((await expiredCounts(db, [storeId], nowMs)).get(storeId) ?? 0);
      }
      const q = inPrefix(inStore(storeId), prefix).where(live(nowMs));
      const r = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async page(storeId, req, nowMs) {
      let q = inPrefix(inStore(storeId), req.prefix).where(live(nowMs));
      if (req.afterKey !== undefined) q = q.where("key", ">", req.afterKey);
      const rows = await q.select(["key", "value", "expires_at_ms"]).orderBy("key").limit(req.limit).execute();
      return rows.map(toRow);
    },

    // The ops run in order against the touched keys' state in memory, then the end state is
    // written: a key set and deleted again in one run costs nothing.
    async apply(storeId, ops, nowMs, maxKeys) {
      const held = await lock(storeId);
      if (held === undefined) return { found: false, refused: [], deleted: 0, keys: 0 };
      let rows = held;
      const purged = await removeExpired(storeId, nowMs, PURGE_BATCH);
      rows -= purged;
      const expiredLeft = purged < PURGE_BATCH ? 0 : ((await expiredCounts(db, [storeId], nowMs)).get(storeId) ?? 0);
      let liveKeys = rows - expiredLeft;
      const touched = [...new Set(ops.flatMap((o) => (o.op === "clear" ? [] : [o.key])))];
      const committed = await existing(storeId, touched);
      const isLive = (exp: number | null | undefined) => exp === null || (exp !== undefined && exp > nowMs);
      let cleared = false;
      const states = new Map<string, KeyState>();
      const stateOf = (key: string): KeyState => {
        let s = states.get(key);
        if (!s) {
          const exp = committed.get(key);
          s = !cleared && committed.has(key) && isLive(exp) ? { present: true, exp: exp! } : { present: false, exp: null };
          states.set(key, s);
        }
        return s;
      };
      const refused: string[] = [];
      let deleted = 0;
      for (const op of ops) {
        if (op.op === "clear") {
          deleted += liveKeys;
          liveKeys = 0;
          cleared = true;
          for (const s of states.values()) Object.assign(s, GONE);
          continue;
        }
        const s = stateOf(op.key);
        if (op.op === "delete") {
          if (s.present) {
            liveKeys--;
            deleted++;
          }
          Object.assign(s, GONE);
        } else if (op.op === "ttl") {
          if (s.present) s.exp = op.expiresAtMs;
        } else {
          if (!s.present && liveKeys >= maxKeys) {
            refused.push(op.key);
            continue;
          }
          if (!s.present) liveKeys++;
          Object.assign(s, { present: true, value: op.valueJson, exp: op.expiresAtMs !== undefined ? op.expiresAtMs : s.present ? s.exp : null });
        }
        // an expiry already past (a ttl of 0 from a run) is a delete
        if (s.present && !isLive(s.exp)) {
          liveKeys--;
          Object.assign(s, GONE);
        }
      }
      if (cleared) {
        await db.deleteFrom("data_store_records").where("store_id", "=", storeId).execute();
        rows = 0;
        committed.clear();
      }
      const upserts: { store_id: string; key: string; value: string; expires_at_ms: number | null }[] = [];
      const removals: string[] = [];
      for (const [key, s] of states) {
        const had = committed.has(key);
        if (!s.present) {
          if (had) {
            removals.push(key);
            rows--;
          }
        } else if (s.value !== undefined) {
          upserts.push({ store_id: storeId, key, value: s.value, expires_at_ms: s.exp });
          if (!had) rows++;
        } else if (s.exp !== committed.get(key)) {
          await db.updateTable("data_store_records").set({ expires_at_ms: s.exp }).where("store_id", "=", storeId).where("key", "=", key).execute();
        }
      }
      for (const part of chunks(removals, KEYS_PER_STATEMENT)) {
        await db.deleteFrom("data_store_records").where("store_id", "=", storeId).where("key", "in", part).execute();
      }
      for (const part of chunks(upserts, ROWS_PER_INSERT)) {
        await db
          .insertInto("data_store_records")
          .values(part)
          .onConflict((oc) =>
            oc.columns(["store_id", "key"]).doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), expires_at_ms: eb.ref("excluded.expires_at_ms") })),
          )
          .execute();
      }
      if (rows !== held) await setCount(storeId, rows);
      return { found: true, refused, deleted, keys: liveKeys };
    },

    async expiredStores(nowMs, limit) {
      const rows = await db
        .selectFrom("data_store_records")
        .select("store_id")
        .where("expires_at_ms", "is not", null)
        .where("expires_at_ms", "<=", nowMs)
        .orderBy("expires_at_ms")
        .limit(limit)
        .execute();
      return [...new Set(rows.map((r) => r.store_id))];
    },
    async purge(storeId, nowMs, limit) {
      const rows = await lock(storeId);
      const n = await removeExpired(storeId, nowMs, limit);
      if (rows !== undefined && n > 0) await setCount(storeId, rows - n);
      return n;
    },
  };
}
