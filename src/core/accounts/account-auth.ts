import type { AccountStore } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";

// The opened auth of connected accounts, for the runs of sources whose app props name one.
// Every such run needs it, so opened accounts are kept in memory by id; a PUT or DELETE of the
// account drops its entry, so the next run reads the new auth. With PostgreSQL another node may
// have changed it, so there an entry is trusted for `ttlMs` only (as cached source lists are).

interface Entry {
  at: number;
  /** the owner and the opened auth, or undefined for an account that doesn't exist */
  value: Promise<{ userId: string; auth: Record<string, unknown> } | undefined>;
}

const MAX_ENTRIES = 10_000;

export class AccountAuth {
  readonly #store: AccountStore;
  readonly #secrets: SecretBox;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, Entry>();

  constructor(store: AccountStore, secrets: SecretBox, ttlMs: number) {
    this.#store = store;
    this.#secrets = secrets;
    this.#ttlMs = ttlMs;
  }

  /**
   * The current auth of the user's account `id`, or undefined when there is no such account of
   * theirs (deleted meanwhile). Rejects only when the store can't be read.
   */
  async auth(userId: string, id: string): Promise<Record<string, unknown> | undefined> {
    let entry = this.#cache.get(id);
    if (!entry || Date.now() - entry.at > this.#ttlMs) {
      entry = { at: Date.now(), value: this.#load(id) };
      if (this.#cache.size >= MAX_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(id, entry);
      // a failed read is not kept: the next run tries the store again
      const mine = entry;
      mine.value.catch(() => {
        if (this.#cache.get(id) === mine) this.#cache.delete(id);
      });
    }
    const opened = await entry.value;
    return opened && opened.userId === userId ? opened.auth : undefined;
  }

  /** The account changed or is gone: runs from now on read it again. */
  drop(id: string): void {
    this.#cache.delete(id);
  }

  async #load(id: string) {
    const row = await this.#store.byId(id);
    if (!row) return undefined;
    return { userId: row.user_id, auth: JSON.parse(this.#secrets.open(row.auth)) as Record<string, unknown> };
  }
}
