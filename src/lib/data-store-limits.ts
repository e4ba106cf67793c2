// The bounds of a data store and the shape of a write, for every writer: the API, and a run's
// `data_store` prop (the runner checks a run's writes with these; its commit applies them).

/**
 * A write to a data store, applied in order by DataStoreRecordStore.apply. `set` without
 * `expiresAtMs` keeps the expiry of the record it replaces (none for a new key), `null` clears
 * it; `ttl` changes only a live record's expiry.
 */
export type DataStoreOp =
  | { op: "set"; key: string; valueJson: string; expiresAtMs?: number | null }
  | { op: "ttl"; key: string; expiresAtMs: number | null }
  | { op: "delete"; key: string }
  | { op: "clear" };

/** A run's writes to one data store, in the order it made them. */
export interface DataStoreWrites {
  store: string;
  ops: DataStoreOp[];
}

/** a key's UTF-8 bytes */
export const MAX_KEY_BYTES = 1024;
/** a value's bytes as JSON */
export const MAX_VALUE_BYTES = 256 * 1024;
/** live keys in one store: a new key past it is refused (`409 limit_reached` from the API) */
export const MAX_KEYS = 100_000;
/** a store's name, in characters */
export const MAX_NAME_LENGTH = 200;
/** the longest ttl, seconds (ten years); no ttl at all is the way to keep a record for good */
export const MAX_TTL_SECONDS = 10 * 365 * 86_400;

/**
 * Why `key` can't be a key, or undefined when it can. Beside its size: a lone UTF-16 surrogate
 * has no UTF-8 form (it would come back as U+FFFD), and PostgreSQL text can't hold U+0000.
 */
export function keyProblem(key: string): string | undefined {
  if (key === "") return "must not be empty";
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `must be at most ${MAX_KEY_BYTES} bytes of UTF-8`;
  if (!key.isWellFormed()) return "must be well-formed Unicode (no lone surrogates)";
  if (key.includes("\u0000")) return "must not contain U+0000";
  return undefined;
}

/** Why a value whose JSON is `json` can't be stored, or undefined when it can. */
export function valueProblem(json: string): string | undefined {
  return Buffer.byteLength(json) > MAX_VALUE_BYTES ? `must be at most ${MAX_VALUE_BYTES} bytes of JSON (256 KiB)` : undefined;
}

/** Why `ttl` (seconds) can't be a record's time to live, or undefined when it can. */
export function ttlProblem(ttl: unknown): string | undefined {
  return typeof ttl === "number" && Number.isInteger(ttl) && ttl > 0 && ttl <= MAX_TTL_SECONDS
    ? undefined
    : `must be a positive integer of seconds (at most ${MAX_TTL_SECONDS}), or null for no expiry`;
}

/** A record as a reader sees it: its value's JSON and when it expires (null: never). */
export interface LiveRecord {
  json: string;
  exp: number | null;
}

/**
 * `records` (live ones, by key) as they are after `ops`, at `now`: what a reader sees of writes
 * not committed yet. Changed in place; `only` limits it to one key (a get).
 */
export function layOver(records: Map<string, LiveRecord>, ops: readonly DataStoreOp[], now: number, only?: string): Map<string, LiveRecord> {
  for (const op of ops) {
    if (op.op === "clear") {
      records.clear();
      continue;
    }
    if (only !== undefined && op.key !== only) continue;
    const had = records.get(op.key);
    if (op.op === "delete") records.delete(op.key);
    else if (op.op === "ttl") {
      if (had) had.exp = op.expiresAtMs;
    } else records.set(op.key, { json: op.valueJson, exp: op.expiresAtMs !== undefined ? op.expiresAtMs : (had?.exp ?? null) });
    const r = records.get(op.key);
    if (r && r.exp !== null && r.exp <= now) records.delete(op.key);
  }
  return records;
}
