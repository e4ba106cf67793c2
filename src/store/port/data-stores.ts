import type { DataStoreOp, DataStoreWrites } from "../../lib/data-store-limits.ts";
import type { Page, PageRequest } from "./paging.ts";
export type { DataStoreOp, DataStoreWrites };

/** A data store (Pipedream's `ds_`): a user's named key-value store of JSON values. */
export interface DataStoreRow {
  id: string;
  user_id: string;
  name: string;
  created_at: number;
  updated_at: number;
  /** live records when it was read (expired ones never count) */
  keys: number;
}

/** One record of a data store. */
export interface DataStoreRecordRow {
  key: string;
  /** the value as JSON text */
  value: string;
  /** when it expires (ms); null: never */
  expires_at_ms: number | null;
}

export interface DataStoreApplyResult {
  /** false when there is no such store (deleted meanwhile): nothing was written */
  found: boolean;
  /** keys whose `set` was refused: each would have been a new key past `maxKeys` */
  refused: string[];
  /** live records removed by `delete` and `clear` */
  deleted: number;
  /** live records after */
  keys: number;
}

/** A page of records in key order (UTF-8 bytes), strictly after `afterKey`, of those starting with `prefix`. */
export interface RecordPageRequest {
  limit: number;
  prefix?: string;
  afterKey?: string;
}

export interface DataStoreStore {
  insert(row: Omit<DataStoreRow, "keys">): Promise<void>;
  byId(id: string, nowMs: number): Promise<DataStoreRow | undefined>;
  /** the owner of each of `ids` that exists (one indexed read, no record counts): id -> user id */
  ownersOf(ids: readonly string[]): Promise<Map<string, string>>;
  rename(id: string, name: string, updatedAt: number): Promise<void>;
  /** the user's stores, newest first */
  list(userId: string, page: PageRequest, nowMs: number): Promise<Page<DataStoreRow> | undefined>;
  /** deletes the store and its records (run it in a transaction); false when there was none */
  delete(id: string): Promise<boolean>;
}

/**
 * A data store's records. Reads never return an expired record. The writes (`apply`, `purge`)
 * lock the store's row first, so run each in a transaction (the store handed to
 * `Store.transaction`): a run's commit can apply its writes with its other results, all or
 * nothing. A transaction that writes several stores should apply them in id order.
 */
export interface DataStoreRecordStore {
  get(storeId: string, key: string, nowMs: number): Promise<DataStoreRecordRow | undefined>;
  getMany(storeId: string, keys: string[], nowMs: number): Promise<Map<string, DataStoreRecordRow>>;
  /** live keys in key order: every one, or a page of them after `afterKey` */
  keys(storeId: string, nowMs: number, page?: { limit: number; afterKey?: string }): Promise<string[]>;
  /** live records, of those starting with `prefix` when given */
  count(storeId: string, nowMs: number, prefix?: string): Promise<number>;
  page(storeId: string, req: RecordPageRequest, nowMs: number): Promise<DataStoreRecordRow[]>;
  /** applies `ops` in order; a new key past `maxKeys` live keys is refused, not an error */
  apply(storeId: string, ops: DataStoreOp[], nowMs: number, maxKeys: number): Promise<DataStoreApplyResult>;
  /** stores that hold expired records, up to `limit` of them (the sweep's work) */
  expiredStores(nowMs: number, limit: number): Promise<string[]>;
  /** removes up to `limit` of the store's expired records; returns how many */
  purge(storeId: string, nowMs: number, limit: number): Promise<number>;
}
