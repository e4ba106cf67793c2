import type { CoreDeps } from "../deps.ts";
import type { AccountRow, OAuthFlowRow, UserRow } from "../../store/port.ts";
import { AppError, invalid, notFound, type FieldProblem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { newEndpointKey } from "../endpoint.ts";
import { nowSeconds } from "../../lib/clock.ts";
import { sha256Hex } from "../../lib/hash.ts";
import type { AccountAuth } from "./account-auth.ts";
import type { OAuthApps } from "./oauth-apps.ts";
import { APP } from "./account-input.ts";
import { checkScopes } from "./oauth-app-input.ts";
import { authorizeUrl, challengeOf, exchangeCode, newState, newVerifier, ProviderRefusal } from "./oauth-client.ts";

// Connecting an account with OAuth 2 (docs/connecting-accounts.md, "How an OAuth connection goes"): a flow starts with POST
// /accounts/connect (or /accounts/{id}/reconnect), the user authorizes at the provider, and the
// provider sends the browser to /oauth/callback with a code and our state. The state is random,
// kept only as its hash, single use and good for 10 minutes; with PKCE the verifier never leaves
// the service. How the flow ended stays on its row for a day, for the CLI or page that waits.

export const FLOW_TTL_MS = 10 * 60_000;
const KEEP_ENDED_MS = 24 * 3600_000;
/** longer than a token exchange may take (10 s), with room */
const INTERRUPTED_MS = 60_000;

export interface ConnectStart {
  id: string;
  authorize_url: string;
  expires_at_ms: number;
}

export interface FlowView {
  id: string;
  app: string;
  status: "pending" | "connected" | "failed" | "expired";
  account_id?: string;
  error?: string;
  expires_at_ms: number;
}

/** What the callback page says. */
export interface CallbackOutcome {
  ok: boolean;
  status: number;
  title: string;
  message: string;
}

/** The question the callback asks before it connects anything: to whom the account goes. */
export interface CallbackQuestion {
  app: string;
  /** the Tributary user who started the flow */
  username: string;
  /** the provider's answer, carried through the form */
  params: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const NO_STATE: CallbackOutcome = { ok: false, status: 400, title: "Not connected", message: "The provider's answer has no state, so it can't be matched to a connection you started." };
const USED: CallbackOutcome = { ok: false, status: 400, title: "Not connected", message: "This link has expired or was used already. Start connecting the account again." };

/** The provider's answer's parameters (string ones only; the form's own fields are not). */
function paramsOf(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (typeof v === "string" && k !== "decision") params.set(k, v);
  return params;
}

function checkBody(body: unknown, reconnect: boolean): { app?: string; name?: string; scopes?: string[] } {
  if (body === undefined || body === null) body = {};
  if (!isObject(body)) throw invalid("the body must be a JSON object", [{ field: "body", message: "must be an object" }]);
  const problems: FieldProblem[] = [];
  const known = reconnect ? ["scopes", "include", "exclude"] : ["app", "name", "scopes", "include", "exclude"];
  for (const k of Object.keys(body)) if (!known.includes(k)) problems.push({ field: k.slice(0, 100), message: "is not a field of a connect request" });
  const out: { app?: string; name?: string; scopes?: string[] } = {};
  if (!reconnect) {
    if (typeof body.app === "string" && APP.test(body.app)) out.app = body.app;
    else problems.push({ field: "app", message: body.app === undefined ? "is required" : "must be an app name" });
    if (body.name !== undefined && body.name !== null) {
      if (typeof body.name === "string" && body.name.trim() !== "" && body.name.length <= 200) out.name = body.name.trim();
      else problems.push({ field: "name", message: "must be a non-empty string of at most 200 characters" });
    }
  }
  if (body.scopes !== undefined && body.scopes !== null) out.scopes = checkScopes(body.scopes, problems);
  if (problems.length) throw invalid("invalid connect request", problems);
  return out;
}

export class OAuthConnect {
  readonly #deps: CoreDeps;
  readonly #apps: OAuthApps;
  readonly #auth: AccountAuth;
  readonly #log: (err: unknown, what: string) => void;

  constructor(deps: CoreDeps, apps: OAuthApps, auth: AccountAuth, log: (err: unknown, what: string) => void) {
    this.#deps = deps;
    this.#apps = apps;
    this.#auth = auth;
    this.#log = log;
  }

  get redirectUri(): string {
    return `${this.#deps.publicUrl}/oauth/callback`;
  }

  /** A new flow for a new account of `app`, or (`account`) one that reconnects that account. */
  async start(user: UserRow, body: unknown, account?: AccountRow): Promise<ConnectStart> {
    const input = checkBody(body, account !== undefined);
    const app = await this.#apps.forApp(account?.app ?? input.app!);
    const now = Date.now();
    await this.#deps.store.oauthFlows.prune(now - KEEP_ENDED_MS);
    const state = newState();
    const verifier = app.pkce ? newVerifier() : null;
    const scopes = input.scopes ?? app.scopes;
    const flow: OAuthFlowRow = {
      id: newId("oc_"),
      state_hash: sha256Hex(state),
      user_id: user.id,
      app: app.app,
      account_id: account?.id ?? null,
      name: input.name ?? null,
      scopes,
      code_verifier: verifier && this.#deps.secrets.seal(verifier),
      expires_at_ms: now + FLOW_TTL_MS,
      used_at_ms: null,
      result_account_id: null,
      error: null,
    };
    await this.#deps.store.oauthFlows.insert(flow);
    const url = authorizeUrl(app, { redirectUri: this.redirectUri, state, scopes, ...(verifier ? { challenge: await challengeOf(verifier) } : {}) });
    return { id: flow.id, authorize_url: url, expires_at_ms: flow.expires_at_ms };
  }

  /** How the user's flow stands; another user's reads as missing. */
  async flow(user: UserRow, id: string): Promise<FlowView> {
    const f = id.startsWith("oc_") ? await this.#deps.store.oauthFlows.byId(id) : undefined;
    if (!f || f.user_id !== user.id) throw notFound("connect flow");
    const now = Date.now();
    // used but never finished: the node that took the callback died on the way
    const interrupted = !f.result_account_id && !f.error && f.used_at_ms !== null && f.used_at_ms < now - INTERRUPTED_MS;
    const error = f.error ?? (interrupted ? "the connection was interrupted: start it again" : undefined);
    const status = f.result_account_id ? "connected" : error ? "failed" : f.used_at_ms === null && f.expires_at_ms <= now ? "expired" : "pending";
    return {
      id: f.id,
      app: f.app,
      status,
      ...(f.result_account_id ? { account_id: f.result_account_id } : {}),
      ...(error ? { error } : {}),
      expires_at_ms: f.expires_at_ms,
    };
  }

  /**
   * The provider sent the browser back (GET). Nothing is connected yet: the page asks whether the
   * account goes to the Tributary user who started the flow. Without that question, someone who
   * started a flow could send its link to another person, whose click (providers skip their
   * consent screen for an app already authorized) would hand over that person's account. The
   * provider's refusal ends the flow at once.
   */
  async question(query: Record<string, unknown>): Promise<CallbackQuestion | CallbackOutcome> {
    const params = paramsOf(query);
    const state = params.get("state");
    if (!state) return NO_STATE;
    if (params.get("error")) return this.callback(query);
    const flow = await this.#deps.store.oauthFlows.pending(sha256Hex(state), Date.now());
    if (!flow) return USED;
    const user = await this.#deps.store.users.byId(flow.user_id);
    return { app: flow.app, username: user?.username ?? flow.user_id, params: Object.fromEntries(params) };
  }

  /**
   * The user answered the question (POST, `connect` or not), or the provider refused (GET).
   * `sessionUserId`: the dashboard user signed in on that browser, if its cookie came (the answer
   * is a same-origin form post, so it does): a flow someone else started is not finished there.
   */
  async callback(query: Record<string, unknown>, sessionUserId?: string, connect = true): Promise<CallbackOutcome> {
    const params = paramsOf(query);
    const state = params.get("state");
    if (!state) return NO_STATE;
    const flow = await this.#deps.store.oauthFlows.use(sha256Hex(state), Date.now());
    if (!flow) return USED;
    const fail = async (status: number, message: string): Promise<CallbackOutcome> => {
      await this.#deps.store.oauthFlows.finish(flow.id, { error: message });
      return { ok: false, status, title: "Not connected", message };
    };
    const error = params.get("error");
    if (error) {
      const description = params.get("error_description");
      return fail(400, `The provider did not authorize the connection: ${error}${description ? ` (${description})` : ""}.`);
    }
    if (!connect) return fail(400, "You chose not to connect the account.");
    if (sessionUserId !== undefined && sessionUserId !== flow.user_id) {
      return fail(403, "This connection was started by another user than the one signed in here, so it was not made.");
    }
    try {
      const app = await this.#apps.forApp(flow.app);
      const verifier = flow.code_verifier && this.#deps.secrets.open(flow.code_verifier);
      const grant = await exchangeCode(app, this.#deps.secrets.open(app.client_secret), params, this.redirectUri, verifier, flow.scopes);
      const account = await this.#save(flow, grant.auth, grant.expiresAtMs);
      await this.#deps.store.oauthFlows.finish(flow.id, { account_id: account.id });
      const verb = flow.account_id ? "reconnected" : "connected";
      return { ok: true, status: 200, title: "Connected", message: `Your ${app.app} account "${account.name}" (${account.id}) is ${verb}. You can close this window.` };
    } catch (e) {
      if (e instanceof ProviderRefusal) return fail(400, `The provider refused the connection: ${e.message}.`);
      if (e instanceof AppError && e.status < 500) return fail(e.status, `${e.message}.`);
      this.#log(e, `finishing OAuth flow ${flow.id} failed`);
      return fail(502, "The provider could not be reached to finish the connection. Try again in a moment.");
    }
  }

  async #save(flow: OAuthFlowRow, auth: Record<string, unknown>, expiresAtMs: number | null): Promise<AccountRow> {
    const now = nowSeconds();
    const sealed = { auth: this.#deps.secrets.seal(JSON.stringify(auth)), auth_fields: Object.keys(auth) };
    const fresh = { ...sealed, oauth: true, status: "ok" as const, status_reason: null, expires_at_ms: expiresAtMs, updated_at: now };
    if (flow.account_id) {
      const current = await this.#deps.store.accounts.byId(flow.account_id);
      if (!current || current.user_id !== flow.user_id) throw new AppError("not_found", "the account to reconnect was deleted meanwhile");
      const next = { ...current, ...fresh, events_key: current.events_key ?? newEndpointKey() };
      await this.#deps.store.accounts.update(next);
      this.#auth.drop(next.id);
      return next;
    }
    const row: AccountRow = { id: newId("apn_"), user_id: flow.user_id, app: flow.app, name: flow.name ?? flow.app, created_at: now, events_key: newEndpointKey(), ...fresh };
    await this.#deps.store.accounts.insert(row);
    return row;
  }
}
