import type { CoreDeps } from "../deps.ts";
import type { OAuthAppRow, UserRow } from "../../store/port.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { nowSeconds } from "../../lib/clock.ts";
import { requireAdmin } from "../users.ts";
import { checkOAuthAppInput } from "./oauth-app-input.ts";

// OAuth apps (docs/connecting-accounts.md, "Configuring an OAuth app (admins)"): the OAuth 2 client an admin registered with a provider, one per
// app. Every user can list them (to know what they can connect); only admins change them. The
// client secret is sealed and never shown.

/** an OAuth app as the API shows it: everything but the client secret */
export type OAuthAppView = Omit<OAuthAppRow, "client_secret">;

export class OAuthApps {
  readonly #deps: CoreDeps;

  constructor(deps: CoreDeps) {
    this.#deps = deps;
  }

  view(a: OAuthAppRow): OAuthAppView {
    const { client_secret: _secret, ...shown } = a;
    return shown;
  }

  async create(actor: UserRow, body: unknown): Promise<OAuthAppRow> {
    requireAdmin(actor);
    const input = checkOAuthAppInput(body, true);
    if (await this.#deps.store.oauthApps.byApp(input.app!)) {
      throw new AppError("conflict", `an OAuth app for ${input.app} exists already: change it with PUT`);
    }
    const now = nowSeconds();
    const row: OAuthAppRow = {
      id: newId("oa_"),
      app: input.app!,
      client_id: input.client_id!,
      client_secret: this.#deps.secrets.seal(input.client_secret!),
      authorize_url: input.authorize_url!,
      token_url: input.token_url!,
      scopes: input.scopes ?? [],
      pkce: input.pkce ?? true,
      token_auth: input.token_auth ?? "basic",
      authorize_params: input.authorize_params ?? {},
      created_at: now,
      updated_at: now,
    };
    try {
      await this.#deps.store.oauthApps.insert(row);
    } catch (e) {
      // two admins racing for the same app: the unique index keeps one
      if (await this.#deps.store.oauthApps.byApp(row.app)) throw new AppError("conflict", `an OAuth app for ${row.app} exists already`);
      throw e;
    }
    return row;
  }

  async get(id: string): Promise<OAuthAppRow> {
    const a = id.startsWith("oa_") ? await this.#deps.store.oauthApps.byId(id) : undefined;
    if (!a) throw notFound("OAuth app");
    return a;
  }

  /** The app configured for `app`, or a 404 that says an admin has to configure it. */
  async forApp(app: string): Promise<OAuthAppRow> {
    const a = await this.#deps.store.oauthApps.byApp(app);
    if (!a) throw new AppError("not_found", `no OAuth app is configured for ${app}: an admin adds one with POST /v1/oauth_apps`);
    return a;
  }

  async update(actor: UserRow, id: string, body: unknown): Promise<OAuthAppRow> {
    requireAdmin(actor);
    const current = await this.get(id);
    const { client_secret, ...input } = checkOAuthAppInput(body, false);
    const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const next: OAuthAppRow = { ...current, ...defined, updated_at: nowSeconds() };
    if (client_secret !== undefined) next.client_secret = this.#deps.secrets.seal(client_secret);
    await this.#deps.store.oauthApps.update(next);
    return next;
  }

  /** Accounts already connected keep working until their next refresh, which then fails. */
  async delete(actor: UserRow, id: string): Promise<void> {
    requireAdmin(actor);
    await this.get(id);
    await this.#deps.store.oauthApps.delete(id);
  }

  list(): Promise<OAuthAppRow[]> {
    return this.#deps.store.oauthApps.list();
  }
}
