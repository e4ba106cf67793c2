import type { AccountRow, AccountStore } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { AccountError } from "./account-error.ts";
import { needsRefresh, type TokenRefresher } from "./token-refresh.ts";

// The opened auth of connected accounts, for the runs of sources whose app props name one.
// Every such run needs it, so opened accounts are kept in memory by id; a PUT or DELETE of the
// account drops its entry, so the next run reads the new auth. With PostgreSQL another node may
// have changed it, so there an entry is trusted for `ttlMs` only (as cached source lists are).
// An OAuth account whose token expires soon is refreshed first (token-refresh.ts); only the run
// that finds it so waits, and one refresh serves every run that asked meanwhile.

interface Opened {
  userId: string;
  auth: Record<string, unknown>;
  oauth: boolean;
  expires_at_ms: number | null;
  updated_at: number;
  status: AccountRow["status"];
  statusReason: string | null;
}

interface Entry {
  at: number;
  /** the opened account, or undefined for an account that doesn't exist */
  value: Promise<Opened | undefined>;
}

const MAX_ENTRIES = 10_000;

export class AccountAuth {
  readonly #store: AccountStore;
  readonly #secrets: SecretBox;
  readonly #ttlMs: number;
  readonly #refresher: TokenRefresher | undefined;
  readonly #cache = new Map<string, Entry>();
  readonly #refreshing = new Map<string, Promise<Opened | undefined>>();

  constructor(store: AccountStore, secrets: SecretBox, ttlMs: number, refresher?: TokenRefresher) {
    this.#store = store;
    this.#secrets = secrets;
    this.#ttlMs = ttlMs;
    this.#refresher = refresher;
  }

  /**
   * The current auth of the user's account `id`, or undefined when there is no such account of
   * theirs (deleted meanwhile). Rejects when the store can't be read, and with an AccountError
   * when the account's tokens can't be made fresh.
   */
  async auth(userId: string, id: string): Promise<Record<string, unknown> | undefined> {
    let opened = await this.#opened(id);
    if (!opened || opened.userId !== userId) return undefined;
    if (opened.oauth && opened.status === "error") throw new AccountError(id, opened.statusReason ?? "it needs reconnecting");
    if (this.#refresher && needsRefresh(opened)) {
      opened = await this.#refresh(id, opened.expires_at_ms);
      if (!opened || opened.userId !== userId) return undefined;
      // another run or node found the refresh refused
      if (opened.oauth && opened.status === "error") throw new AccountError(id, opened.statusReason ?? "it needs reconnecting");
    }
    return opened.auth;
  }

  /** The account changed or is gone: runs from now on read it again. */
  drop(id: string): void {
    this.#cache.delete(id);
  }

  #opened(id: string): Promise<Opened | undefined> {
    let entry = this.#cache.get(id);
    if (!entry || Date.now() - entry.at > this.#ttlMs) {
      entry = { at: Date.now(), value: this.#store.byId(id).then((row) => row && this.#open(row)) };
      this.#remember(id, entry);
    }
    return entry.value;
  }

  #remember(id: string, entry: Entry): void {
    if (this.#cache.size >= MAX_ENTRIES && !this.#cache.has(id)) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(id, entry);
    // a failed read is not kept: the next run tries the store again
    entry.value.catch(() => {
      if (this.#cache.get(id) === entry) this.#cache.delete(id);
    });
  }

  #refresh(id: string, seenExpiry: number | null): Promise<Opened | undefined> {
    let pending = this.#refreshing.get(id);
    if (!pending) {
      pending = this.#refresher!.fresh(id, seenExpiry).then(
        (row) => row && this.#open(row),
        (e: unknown) => {
          this.drop(id); // its status may have changed: the next run reads it
          throw e;
        },
      );
      const mine = pending;
      this.#refreshing.set(id, mine);
      void mine.then(
        (opened) => this.#remember(id, { at: Date.now(), value: Promise.resolve(opened) }),
        () => undefined,
      ).finally(() => {
        if (this.#refreshing.get(id) === mine) this.#refreshing.delete(id);
      });
    }
    return pending;
  }

  #open(row: AccountRow): Opened {
    return {
      userId: row.user_id,
      auth: JSON.parse(this.#secrets.open(row.auth)) as Record<string, unknown>,
      oauth: row.oauth,
      expires_at_ms: row.expires_at_ms,
      updated_at: row.updated_at,
      status: row.status,
      statusReason: row.status_reason,
    };
  }
}
