import * as oauth from "oauth4webapi";
import type { OAuthAppRow } from "../../store/port.ts";

// The OAuth 2 client side of connected accounts, on oauth4webapi (request encoding, client
// authentication, PKCE, token response checks). What is ours: turning a provider's answer into
// an account's `$auth` (docs/connecting-accounts.md, "How an OAuth connection goes"), and tolerating what real providers send that RFC 6749
// doesn't: GitHub and Slack answer refusals with 200 and an `error` field, Slack's token_type is
// "bot", Google adds an OpenID `id_token` whose issuer is not the token endpoint's origin.

const TIMEOUT_MS = 10_000;
/** what the token response's fields become in `$auth`; the rest are kept under their own names */
const MAPPED = new Set(["access_token", "refresh_token", "expires_in", "scope"]);

export interface Grant {
  /** the account's `$auth` */
  auth: Record<string, unknown>;
  expiresAtMs: number | null;
}

/** A provider's refusal (invalid_grant, access_denied…) as opposed to a failure to reach it. */
export class ProviderRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderRefusal";
  }
}

function server(app: OAuthAppRow): oauth.AuthorizationServer {
  return { issuer: new URL(app.token_url).origin, authorization_endpoint: app.authorize_url, token_endpoint: app.token_url };
}

function clientAuth(app: OAuthAppRow, secret: string): oauth.ClientAuth {
  return app.token_auth === "body" ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret);
}

const options = (app: OAuthAppRow) => ({
  signal: AbortSignal.timeout(TIMEOUT_MS),
  // plain http only where an admin configured it so (a provider on the local network, tests)
  [oauth.allowInsecureRequests]: app.token_url.startsWith("http:"),
});

/** The provider's answer made into one that oauth4webapi's RFC checks accept, and what it set aside. */
async function normalized(res: Response): Promise<{ res: Response; extra: Record<string, unknown> }> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = Object.fromEntries(new URLSearchParams(text)); // GitHub without Accept: JSON answers a form
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new Error(`the token endpoint answered ${res.status} without a JSON object`);
  }
  const body = { ...(json as Record<string, unknown>) };
  const extra: Record<string, unknown> = {};
  let status = res.status;
  if (typeof body.error === "string" && status === 200) status = 400;
  if (status === 200) {
    if (body.id_token !== undefined) {
      extra.id_token = body.id_token;
      delete body.id_token;
    }
    if (typeof body.token_type !== "string" || !["bearer", "dpop"].includes(body.token_type.toLowerCase())) {
      if (body.token_type !== undefined) extra.token_type = body.token_type;
      body.token_type = "bearer";
    }
  }
  const headers = new Headers({ "content-type": "application/json" });
  const www = res.headers.get("www-authenticate");
  if (www && status !== 401) headers.set("www-authenticate", www);
  return { res: new Response(JSON.stringify(body), { status, headers }), extra };
}

/** OAuth errors that say "not now" rather than "never": the account is not marked for them */
const TRANSIENT = new Set(["server_error", "temporarily_unavailable", "slow_down"]);

function refusal(e: unknown): Error {
  if (e instanceof oauth.ResponseBodyError) {
    const what = `${e.error}${e.error_description ? `: ${e.error_description}` : ""}`;
    // a 5xx, or a 4xx that says try later, is an outage: the next run tries again
    if (e.status >= 500 || e.status === 429 || TRANSIENT.has(e.error)) return new Error(`the provider answered ${e.status} (${what})`);
    return new ProviderRefusal(what);
  }
  if (e instanceof oauth.WWWAuthenticateChallengeError) return new ProviderRefusal("the provider refused the client's credentials");
  if (e instanceof Error && e.name === "TimeoutError") return new Error(`the token endpoint didn't answer within ${TIMEOUT_MS / 1000} s`);
  return e instanceof Error ? e : new Error(String(e));
}

function grantOf(tokens: oauth.TokenEndpointResponse, extra: Record<string, unknown>, previous?: Record<string, unknown>): Grant {
  const expiresAtMs = typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : null;
  const auth: Record<string, unknown> = { ...(previous ?? {}) };
  for (const [k, v] of Object.entries(tokens)) if (!MAPPED.has(k) && k !== "token_type") auth[k] = v;
  Object.assign(auth, extra);
  if (extra.token_type === undefined) auth.token_type = tokens.token_type;
  auth.oauth_access_token = tokens.access_token;
  // a refresh that doesn't rotate the refresh token keeps the one we have
  if (typeof tokens.refresh_token === "string") auth.oauth_refresh_token = tokens.refresh_token;
  const uid = tokens.user_id ?? tokens.uid ?? (tokens.authed_user as { id?: unknown } | undefined)?.id;
  if (typeof uid === "string" || typeof uid === "number") auth.oauth_uid = String(uid);
  if (expiresAtMs !== null) auth.expires_at = new Date(expiresAtMs).toISOString();
  else delete auth.expires_at;
  if (typeof tokens.scope === "string") auth.scopes = tokens.scope.split(/[\s,]+/).filter(Boolean);
  else if (!Array.isArray(auth.scopes)) auth.scopes = [];
  return { auth, expiresAtMs };
}

/** The provider's authorization URL for one flow. */
export function authorizeUrl(app: OAuthAppRow, p: { redirectUri: string; state: string; scopes: string[]; challenge?: string }): string {
  const url = new URL(app.authorize_url);
  for (const [k, v] of Object.entries(app.authorize_params)) url.searchParams.set(k, v);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", app.client_id);
  url.searchParams.set("redirect_uri", p.redirectUri);
  if (p.scopes.length > 0) url.searchParams.set("scope", p.scopes.join(" "));
  url.searchParams.set("state", p.state);
  if (p.challenge) {
    url.searchParams.set("code_challenge", p.challenge);
    url.searchParams.set("code_challenge_method", "S256");
  }
  return url.href;
}

export const newVerifier = () => oauth.generateRandomCodeVerifier();
export const newState = () => oauth.generateRandomState();
export const challengeOf = (verifier: string) => oauth.calculatePKCECodeChallenge(verifier);

/** Exchanges the callback's code for tokens. `params`: the callback's query, state already checked. */
export async function exchangeCode(app: OAuthAppRow, secret: string, params: URLSearchParams, redirectUri: string, verifier: string | null, scopes: string[]): Promise<Grant> {
  const as = server(app);
  const client: oauth.Client = { client_id: app.client_id };
  try {
    // one provider per app and a state bound to it: `iss` (mix-up defence) adds nothing, and our
    // issuer is made up from the token URL, so a provider that sends it must not fail the flow
    const ours = new URLSearchParams(params);
    ours.delete("iss");
    const code = oauth.validateAuthResponse(as, client, ours, oauth.skipStateCheck);
    const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth(app, secret), code, redirectUri, verifier ?? oauth.nopkce, options(app));
    const { res: checked, extra } = await normalized(res);
    const grant = grantOf(await oauth.processAuthorizationCodeResponse(as, client, checked), extra);
    if (!Array.isArray(grant.auth.scopes) || (grant.auth.scopes as unknown[]).length === 0) grant.auth.scopes = scopes;
    return grant;
  } catch (e) {
    if (e instanceof oauth.AuthorizationResponseError) throw new ProviderRefusal(`${e.error}${e.error_description ? `: ${e.error_description}` : ""}`);
    throw refusal(e);
  }
}

/** New tokens for an account's refresh token; `previous` is its current `$auth`. */
export async function refreshTokens(app: OAuthAppRow, secret: string, previous: Record<string, unknown>): Promise<Grant> {
  const token = previous.oauth_refresh_token;
  if (typeof token !== "string" || token === "") throw new ProviderRefusal("the account has no refresh token: reconnect it");
  const as = server(app);
  const client: oauth.Client = { client_id: app.client_id };
  try {
    const res = await oauth.refreshTokenGrantRequest(as, client, clientAuth(app, secret), token, options(app));
    const { res: checked, extra } = await normalized(res);
    return grantOf(await oauth.processRefreshTokenResponse(as, client, checked), extra, previous);
  } catch (e) {
    throw refusal(e);
  }
}
