import type { AccountRow, AccountStore, OAuthAppStore } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { nowSeconds } from "../../lib/clock.ts";
import { AccountError } from "./account-error.ts";
import { ProviderRefusal, refreshTokens } from "./oauth-client.ts";

// Refreshing an OAuth account's tokens before they expire (docs/connecting-accounts.md, "Refresh"): one refresh per
// account at a time on every node. The node that claims the account's refresh (a conditional
// UPDATE) asks the provider and writes the new tokens, expiry and status in one statement; any
// other caller, here or on another node, waits for the claim to end and reads what it wrote. Two
// refreshes at once would each spend the refresh token, and providers that rotate it revoke the
// account on the second use.

/**
 * Tokens that expire within this are refreshed before the invocation that needs them; one that
 * lives shorter than twice this (a provider giving 2-minute tokens), in the second half of its
 * life, so that a fresh token is not refreshed again by every run.
 */
export const REFRESH_WINDOW_MS = 5 * 60_000;
/** a claim longer than the token request's own 10 s limit, so a dead claimer's claim lapses */
const CLAIM_MS = 20_000;
const POLL_MS = 50;

export function needsRefresh(a: Pick<AccountRow, "oauth" | "expires_at_ms" | "updated_at">, now = Date.now()): boolean {
  if (!a.oauth || a.expires_at_ms === null) return false;
  // updated_at: when the tokens were had (or the account renamed since: a later, smaller window)
  const lifetime = a.expires_at_ms - a.updated_at * 1000;
  return a.expires_at_ms - now < Math.min(REFRESH_WINDOW_MS, lifetime / 2);
}

export class TokenRefresher {
  readonly #accounts: AccountStore;
  readonly #apps: OAuthAppStore;
  readonly #secrets: SecretBox;

  constructor(accounts: AccountStore, apps: OAuthAppStore, secrets: SecretBox) {
    this.#accounts = accounts;
    this.#apps = apps;
    this.#secrets = secrets;
  }

  /**
   * The account as it is once its tokens are fresh (refreshed here or by whoever claimed it).
   * `seenExpiry`: the expiry the caller found too close; any other means someone refreshed it.
   */
  async fresh(id: string, seenExpiry: number | null): Promise<AccountRow | undefined> {
    const deadline = Date.now() + CLAIM_MS + 5_000;
    for (;;) {
      const now = Date.now();
      const claim = now + CLAIM_MS;
      if (await this.#accounts.claimRefresh(id, now, claim)) return this.#refresh(id, seenExpiry, claim);
      if (now > deadline) throw new AccountError(id, "its token refresh is taking too long; try again");
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (!(await this.#accounts.refreshClaimed(id, Date.now()))) {
        const row = await this.#accounts.byId(id);
        if (!row || row.status === "error" || row.expires_at_ms !== seenExpiry || !needsRefresh(row)) return row;
      }
    }
  }

  async #refresh(id: string, seenExpiry: number | null, claim: number): Promise<AccountRow | undefined> {
    const row = await this.#accounts.byId(id);
    // someone refreshed it between our read and our claim
    if (!row || row.status === "error" || row.expires_at_ms !== seenExpiry || !needsRefresh(row)) {
      await this.#accounts.releaseRefresh(id, claim);
      return row;
    }
    const previous = JSON.parse(this.#secrets.open(row.auth)) as Record<string, unknown>;
    try {
      const app = await this.#apps.byApp(row.app);
      if (!app) throw new ProviderRefusal(`no OAuth app is configured for ${row.app} any more`);
      const grant = await refreshTokens(app, this.#secrets.open(app.client_secret), previous);
      const next: AccountRow = {
        ...row,
        auth: this.#secrets.seal(JSON.stringify(grant.auth)),
        auth_fields: Object.keys(grant.auth),
        expires_at_ms: grant.expiresAtMs,
        status: "ok",
        status_reason: null,
        updated_at: nowSeconds(),
      };
      // reconnected or edited meanwhile: what the store holds now wins
      return (await this.#accounts.refreshed(id, claim, next)) ? next : this.#accounts.byId(id);
    } catch (e) {
      if (e instanceof ProviderRefusal) {
        const reason = `the provider refused to refresh its token (${e.message}): reconnect it`;
        const marked = await this.#accounts.refreshed(id, claim, { ...row, status: "error", status_reason: reason, updated_at: nowSeconds() });
        if (!marked) return this.#accounts.byId(id);
        throw new AccountError(id, reason);
      }
      await this.#accounts.releaseRefresh(id, claim).catch(() => undefined);
      // the provider is unreachable: a token that still works is used, an expired one fails this run
      if (row.expires_at_ms !== null && row.expires_at_ms > Date.now()) return row;
      throw new AccountError(id, `its token expired and refreshing it failed (${e instanceof Error ? e.message : String(e)})`);
    }
  }
}
