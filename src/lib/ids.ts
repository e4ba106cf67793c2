import { randomBytes, randomFillSync } from "node:crypto";

// 16 url-safe characters = 96 random bits: unguessable (64 would do: no one finds an id by trying them).
// Ids are made on the hot path (every event's emit_id, every delivery), and one small
// randomBytes call costs more than the rest of an id, so random bytes are drawn a pool at a time.
const POOL = Buffer.alloc(12 * 512);
let offset = POOL.length;

export function newId(prefix: string): string {
  if (offset === POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const id = POOL.toString("base64url", offset, offset + 12);
  offset += 12;
  return prefix + id;
}

/** API keys: long enough that a fast hash (sha256) is a safe way to store them. */
export function newApiKey(): string {
  return "trb_" + randomBytes(24).toString("base64url");
}

/**
 * An id that sorts by creation time (to the millisecond), with the same 96 random bits after it.
 * For rows written and deleted in bulk (deliveries): new keys land at the right edge of their
 * unique index instead of on random pages, so a commit dirties a few pages, not one per row.
 */
export function newTimeOrderedId(prefix: string): string {
  return prefix + Date.now().toString(36).padStart(9, "0") + newId("");
}
