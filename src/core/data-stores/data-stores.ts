import type { DataStoreApplyResult, DataStoreOp, DataStoreRecordRow, DataStoreRow, PageRequest, Store, UserRow } from "../../store/port.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { nowSeconds } from "../../lib/clock.ts";
import { MAX_KEYS } from "../../lib/data-store-limits.ts";
import { checkKey, checkRecordInput, checkRecordQuery, checkStoreName } from "./input.ts";

// Data stores (Pipedream's `ds_` ids): a user's named key-value stores of JSON values, with an
// optional time to live per record. The API reads and writes them here; a run's `data_store`
// prop (to come) will read through the same store port and apply its writes in its commit.

export interface DataStoreView {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
  keys: number;
}

export interface RecordView {
  key: string;
  value: unknown;
  expires_at_ms: number | null;
}

export interface RecordPageQuery {
  limit?: number;
  prefix?: string;
  after?: string;
  before?: string;
}

export class DataStores {
  readonly #store: Store;
  /** live keys one store may hold (limits.ts); a test lowers it rather than writing 100,000 */
  maxKeys: number;

  constructor(store: Store, opts: { maxKeys?: number } = {}) {
    this.#store = store;
    this.maxKeys = opts.maxKeys ?? MAX_KEYS;
  }

  view(s: DataStoreRow): DataStoreView {
    return { id: s.id, name: s.name, created_at: s.created_at, updated_at: s.updated_at, keys: s.keys };
  }

  recordView(r: DataStoreRecordRow): RecordView {
    return { key: r.key, value: JSON.parse(r.value), expires_at_ms: r.expires_at_ms };
  }

  async create(user: UserRow, body: unknown): Promise<DataStoreRow> {
    const name = checkStoreName(body);
    const now = nowSeconds();
    const row = { id: newId("ds_"), user_id: user.id, name, created_at: now, updated_at: now };
    await this.#store.dataStores.insert(row);
    return { ...row, keys: 0 };
  }

  /** The user's store; another user's reads exactly like a missing one. */
  async get(user: UserRow, id: string): Promise<DataStoreRow> {
    const s = id.startsWith("ds_") ? await this.#store.dataStores.byId(id, Date.now()) : undefined;
    if (!s || s.user_id !== user.id) throw notFound("data store");
    return s;
  }

  async rename(user: UserRow, id: string, body: unknown): Promise<DataStoreRow> {
    await this.get(user, id);
    const name = checkStoreName(body);
    await this.#store.dataStores.rename(id, name, nowSeconds());
    return this.get(user, id);
  }

  /** The store and every record in it. */
  async delete(user: UserRow, id: string): Promise<void> {
    await this.get(user, id);
    await this.#store.transaction((tx) => tx.dataStores.delete(id));
  }

  async list(user: UserRow, page: PageRequest) {
    const result = await this.#store.dataStores.list(user.id, page, Date.now());
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }

  /** A page of live records in key order, and how many match in all. */
  async records(user: UserRow, id: string, q: RecordPageQuery): Promise<{ items: DataStoreRecordRow[]; total: number }> {
    await this.get(user, id);
    const { prefix, afterKey } = checkRecordQuery(q);
    const nowMs = Date.now();
    const records = this.#store.dataStoreRecords;
    const [items, total] = await Promise.all([records.page(id, { limit: q.limit ?? 10, prefix, afterKey }, nowMs), records.count(id, nowMs, prefix)]);
    return { items, total };
  }

  async getRecord(user: UserRow, id: string, key: string): Promise<DataStoreRecordRow> {
    await this.get(user, id);
    checkKey(key);
    const r = await this.#store.dataStoreRecords.get(id, key, Date.now());
    if (!r) throw notFound("record");
    return r;
  }

  /** Sets the key's value; `ttl` (seconds) sets its expiry, null clears it, absent keeps it. */
  async putRecord(user: UserRow, id: string, key: string, body: unknown): Promise<RecordView> {
    await this.get(user, id);
    const input = checkRecordInput(key, body);
    const nowMs = Date.now();
    const expiresAtMs = input.ttl === undefined ? undefined : input.ttl === null ? null : nowMs + input.ttl * 1000;
    const ops: DataStoreOp[] = [{ op: "set", key, valueJson: input.valueJson, expiresAtMs }];
    // the expiry as written: an absent ttl keeps the one the key had
    const expires = await this.#write(id, ops, nowMs, async (tx) => (await tx.dataStoreRecords.get(id, key, nowMs))!.expires_at_ms);
    return { key, value: input.value, expires_at_ms: expires };
  }

  async deleteRecord(user: UserRow, id: string, key: string): Promise<void> {
    await this.get(user, id);
    checkKey(key);
    const deleted = await this.#write(id, [{ op: "delete", key }], Date.now(), async (_tx, r) => r.deleted);
    if (deleted === 0) throw notFound("record");
  }

  /** Applies `ops` in a transaction, then `then` in it; a refused key or a store gone writes nothing. */
  #write<T>(id: string, ops: DataStoreOp[], nowMs: number, then: (tx: Store, r: DataStoreApplyResult) => Promise<T>): Promise<T> {
    return this.#store.transaction(async (tx) => {
      const r = await tx.dataStoreRecords.apply(id, ops, nowMs, this.maxKeys);
      if (!r.found) throw notFound("data store");
      if (r.refused.length > 0) {
        const key = JSON.stringify(r.refused[0]).slice(0, 200);
        throw new AppError("limit_reached", `data store ${id} is full: it holds ${this.maxKeys} keys, the most allowed; delete some to add ${key}`);
      }
      return then(tx, r);
    });
  }
}
