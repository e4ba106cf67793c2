import type { CoreDeps } from "../deps.ts";
import type { AccountRow, PageRequest, UserRow } from "../../store/port.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { nowSeconds } from "../../lib/clock.ts";
import type { Components } from "../components.ts";
import type { AccountAuth } from "./account-auth.ts";
import { accountRefs } from "./account-refs.ts";
import { withAdded } from "../added-props.ts";
import { checkAccountInput } from "./account-input.ts";
import { newEndpointKey } from "../endpoint.ts";
import { appEventsUrl } from "../app-events/app-events-url.ts";

// Connected accounts (Pipedream's `apn_` ids): an app's credentials, kept once and named by the
// app props of sources as {"authProvisionId": "apn_..."}. The auth is sealed at rest and never
// leaves the service except into the runs that use it; the API shows only its field names.

export interface AccountView {
  id: string;
  app: string;
  name: string;
  created_at: number;
  updated_at: number;
  auth_fields: string[];
  /** connected with OAuth: the service refreshes its tokens */
  oauth: boolean;
  /** "error" when its token refresh was refused: runs that use it fail until it is reconnected */
  status: "ok" | "error";
  status_reason?: string;
  /** when its access token expires, if the provider said */
  expires_at_ms?: number;
  /** where the app sends its events for the apphook props bound to this account (app-events/) */
  /** null for an account a node of the previous version made, until it is edited or reconnected */
  events_url: string | null;
}

/** sources listed by id in a 409 at most; the rest are counted */
const MAX_NAMED = 20;

export class Accounts {
  readonly #deps: CoreDeps;
  readonly #auth: AccountAuth;
  readonly #components: Components;

  constructor(deps: CoreDeps, auth: AccountAuth, components: Components) {
    this.#deps = deps;
    this.#auth = auth;
    this.#components = components;
  }

  view(a: AccountRow): AccountView {
    return {
      id: a.id,
      app: a.app,
      name: a.name,
      created_at: a.created_at,
      updated_at: a.updated_at,
      auth_fields: a.auth_fields,
      oauth: a.oauth,
      status: a.status,
      ...(a.status_reason !== null ? { status_reason: a.status_reason } : {}),
      ...(a.expires_at_ms !== null ? { expires_at_ms: a.expires_at_ms } : {}),
      events_url: a.events_key === null ? null : appEventsUrl(this.#deps.publicUrl, a.events_key),
    };
  }

  async create(user: UserRow, body: unknown): Promise<AccountRow> {
    const input = checkAccountInput(body, true);
    const now = nowSeconds();
    const row: AccountRow = {
      id: newId("apn_"),
      user_id: user.id,
      app: input.app!,
      name: input.name ?? input.app!,
      auth: this.#deps.secrets.seal(JSON.stringify(input.auth)),
      auth_fields: Object.keys(input.auth!),
      created_at: now,
      updated_at: now,
      oauth: false,
      status: "ok",
      status_reason: null,
      expires_at_ms: null,
      events_key: newEndpointKey(),
    };
    await this.#deps.store.accounts.insert(row);
    return row;
  }

  /** The user's account; another user's reads exactly like a missing one. */
  async get(user: UserRow, id: string): Promise<AccountRow> {
    const a = id.startsWith("apn_") ? await this.#deps.store.accounts.byId(id) : undefined;
    if (!a || a.user_id !== user.id) throw notFound("account");
    return a;
  }

  /** A new name and/or auth; the next run of every source that uses the account sees the auth. */
  async update(user: UserRow, id: string, body: unknown): Promise<AccountRow> {
    const current = await this.get(user, id);
    const input = checkAccountInput(body, false);
    const next: AccountRow = { ...current, updated_at: nowSeconds(), events_key: current.events_key ?? newEndpointKey() };
    if (input.name !== undefined) next.name = input.name;
    if (input.auth !== undefined) {
      next.auth = this.#deps.secrets.seal(JSON.stringify(input.auth));
      next.auth_fields = Object.keys(input.auth);
      // credentials given by hand are the account's now: no OAuth expiry or refresh failure applies
      Object.assign(next, { status: "ok", status_reason: null, expires_at_ms: null });
    }
    await this.#deps.store.accounts.update(next);
    this.#auth.drop(id);
    return next;
  }

  /** A new app-events URL: the old one answers 404 from now on (it leaked, say). */
  async rotateEventsUrl(user: UserRow, id: string): Promise<AccountRow> {
    const next: AccountRow = { ...(await this.get(user, id)), events_key: newEndpointKey(), updated_at: nowSeconds() };
    await this.#deps.store.accounts.update(next);
    return next;
  }

  /** Refused with 409 while a source uses the account: its runs would lose their credentials. */
  async delete(user: UserRow, id: string): Promise<void> {
    await this.get(user, id);
    const users = await this.usedBy(user, id);
    if (users.length > 0) {
      const named = users.slice(0, MAX_NAMED).join(", ");
      const more = users.length > MAX_NAMED ? ` and ${users.length - MAX_NAMED} more` : "";
      throw new AppError("conflict", `account ${id} is used by source${users.length === 1 ? "" : "s"} ${named}${more}`);
    }
    await this.#deps.store.accounts.delete(id);
    this.#auth.drop(id);
  }

  /**
   * The ids of the user's sources whose app props name the account, oldest first. Workflows
   * have no props, so only sources can use an account.
   */
  async usedBy(user: UserRow, id: string): Promise<string[]> {
    const out: string[] = [];
    const sources = await this.#deps.store.sources.listAll(user.id);
    for (const s of sources.reverse()) {
      const meta = await this.#components.meta(s.component_id);
      if (meta && accountRefs(withAdded(meta, s.props), s.props).some((r) => r.id === id)) out.push(s.id);
    }
    return out;
  }

  async list(user: UserRow, page: PageRequest) {
    const result = await this.#deps.store.accounts.list(user.id, page);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }
}
