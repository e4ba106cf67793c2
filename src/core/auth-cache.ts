import type { UserRow } from "../store/port.ts";

// Authentication runs on every request, so key-hash → user lookups are kept in memory.
// Entries expire after a short TTL so a key rotated or a user deleted on another node stops
// working within seconds; on this node they are dropped at once.
const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

export class AuthCache {
  readonly #entries = new Map<string, { user: UserRow; expires: number }>();

  get(hash: string): UserRow | undefined {
    const hit = this.#entries.get(hash);
    if (!hit) return undefined;
    if (hit.expires < Date.now()) {
      this.#entries.delete(hash);
      return undefined;
    }
    return hit.user;
  }

  set(hash: string, user: UserRow): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(hash, { user, expires: Date.now() + TTL_MS });
  }

  dropUser(userId: string): void {
    for (const [hash, entry] of this.#entries) if (entry.user.id === userId) this.#entries.delete(hash);
  }
}
