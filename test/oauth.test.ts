import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import { answerOAuthCallback, assertErrorEnvelope, eventsOf, startApp, waitEvents, type Reply, type TestApp } from "./helpers.ts";

// OAuth 2 connected accounts (docs/connecting-accounts.md) against a real authorization server started here
// (oauth2-mock-server: authorization endpoint, token endpoint with PKCE checks, refresh grants):
// admins configure the app, users connect through the provider's redirect to /oauth/callback,
// sources use the account, tokens are refreshed before they expire (once, however many runs ask),
// a refused refresh marks the account and fails the run with AccountError, states are single use.

const SOURCE = `
export default {
  key: "oauth-user",
  name: "OAuth user",
  version: "0.1.0",
  props: { github: { type: "app", app: "github" } },
  run() { this.$emit({ token: this.github.$auth.oauth_access_token, fields: Object.keys(this.github.$auth).sort() }); },
};`;

interface User {
  id: string;
  key: string;
}

/** Waits until a 2-second token is in the second half of its life, where a run refreshes it. */
const inRefreshWindow = (expiresAtMs: number) =>
  new Promise<void>((resolve) => {
    const check = () => (Date.now() >= expiresAtMs - 1000 ? resolve() : setTimeout(check, 50));
    check();
  });

describe("OAuth accounts", () => {
  let t: TestApp;
  let provider: OAuth2Server;
  let tokenUrl: string;
  /** grant types the token endpoint was asked for, in order */
  const grants: string[] = [];
  /** refresh tokens the provider refuses (revoked) */
  const revoked = new Set<string>();
  /** the expires_in the provider gives: short ones put the token inside the refresh window at once */
  let expiresIn = 3600;
  let user: User;
  let other: User;

  before(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    tokenUrl = `${provider.issuer.url!}/token`;
    // tokens made in the same second would be identical: each gets a serial number
    let serial = 0;
    provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => void (token.payload.serial = ++serial));
    provider.service.on("beforeResponse", (res: { body: Record<string, unknown>; statusCode: number }, req: IncomingMessage & { body: Record<string, string> }) => {
      grants.push(req.body.grant_type!);
      if (req.body.grant_type === "refresh_token" && revoked.has(req.body.refresh_token!)) {
        res.statusCode = 400;
        res.body = { error: "invalid_grant", error_description: "the refresh token was revoked" };
        return;
      }
      res.body.expires_in = expiresIn;
      res.body.user_id = "u-42";
      delete res.body.id_token;
    });
    t = await startApp();
    user = await t.newUser();
    other = await t.newUser();
  });
  after(async () => {
    await t?.close();
    await provider?.stop();
  });

  const configure = (body: Record<string, unknown>, key?: string) => t.request("POST", "/v1/oauth_apps", { body, ...(key ? { key } : {}) });

  const github = () => ({
    app: "github",
    client_id: "client-1",
    client_secret: "client-secret-SECRET",
    authorize_url: `${provider.issuer.url!}/authorize`,
    token_url: tokenUrl,
    scopes: ["repo", "read:user"],
  });

  /** Starts a flow and follows the provider's redirect back to the callback: the callback's reply. */
  async function connect(u: User, body: Record<string, unknown> = { app: "github" }, path = "/v1/accounts/connect"): Promise<{ flow: string; page: Reply; callback: string }> {
    const start = await t.request("POST", path, { key: u.key, body });
    assert.equal(start.status, 200, start.text);
    const res = await fetch(start.body.data.authorize_url, { redirect: "manual" });
    assert.equal(res.status, 302);
    const back = new URL(res.headers.get("location")!);
    assert.equal(back.origin + back.pathname, "http://tributary.test/oauth/callback");
    const callback = back.pathname + back.search;
    return { flow: start.body.data.id, page: await answerOAuthCallback(t, callback), callback };
  }

  async function account(u: User, id: string) {
    const res = await t.request("GET", `/v1/accounts/${id}`, { key: u.key });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  it("admins configure OAuth apps; everyone lists them; the secret never comes back; bad input is 400", async () => {
    assertErrorEnvelope(await configure(github(), user.key), 403, "forbidden");
    const created = await configure(github());
    assert.equal(created.status, 200, created.text);
    const app = created.body.data;
    assert.match(app.id, /^oa_/);
    assert.equal(app.pkce, true);
    assert.equal(app.token_auth, "basic");
    assert.ok(!created.text.includes("client-secret"), "the client secret is never shown");
    assertErrorEnvelope(await configure(github()), 409, "conflict");
    const listed = await t.request("GET", "/v1/oauth_apps", { key: user.key });
    assert.deepEqual(listed.body.data.map((a: { app: string }) => a.app), ["github"]);
    assert.ok(!listed.text.includes("client-secret"));

    const bad = await configure({ app: "x y", client_id: "", authorize_url: "ftp://a", token_url: "https://u:p@a/", scopes: "repo", pkce: 1, token_auth: "jwt", authorize_params: { state: "x" }, extra: 1 });
    assertErrorEnvelope(bad, 400, "invalid_request");
    const fields = bad.body.error.details.map((d: { field: string }) => d.field).sort();
    assert.deepEqual(fields, ["app", "authorize_params", "authorize_url", "client_id", "client_secret", "extra", "pkce", "scopes", "token_auth", "token_url"]);

    assertErrorEnvelope(await t.request("PUT", `/v1/oauth_apps/${app.id}`, { key: user.key, body: { client_id: "x" } }), 403, "forbidden");
    const put = await t.request("PUT", `/v1/oauth_apps/${app.id}`, { body: { authorize_params: { prompt: "consent" } } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.data.authorize_params, { prompt: "consent" });
    assertErrorEnvelope(await t.request("PUT", `/v1/oauth_apps/${app.id}`, { body: { app: "gitlab" } }), 400, "invalid_request");
    assertErrorEnvelope(await t.request("GET", "/v1/oauth_apps/oa_missing", { key: user.key }), 404, "not_found");
  });

  it("connect: the provider's page with state and an S256 challenge, the callback makes the account, the flow says so", async () => {
    const start = await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: "github", name: "Work GitHub" } });
    assert.equal(start.status, 200, start.text);
    const url = new URL(start.body.data.authorize_url);
    assert.equal(url.searchParams.get("response_type"), "code");
    assert.equal(url.searchParams.get("client_id"), "client-1");
    assert.equal(url.searchParams.get("redirect_uri"), "http://tributary.test/oauth/callback");
    assert.equal(url.searchParams.get("scope"), "repo read:user");
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.ok((url.searchParams.get("state") ?? "").length >= 32);
    assert.equal(url.searchParams.get("prompt"), "consent", "the app's authorize_params are added");
    assert.ok(start.body.data.expires_at_ms > Date.now() + 9 * 60_000);
    const pending = await t.request("GET", `/v1/accounts/connect/${start.body.data.id}`, { key: user.key });
    assert.equal(pending.body.data.status, "pending");

    const res = await fetch(start.body.data.authorize_url, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    // the page asks first, naming the Tributary user the account would go to; nothing is made yet
    const question = await t.request("GET", back.pathname + back.search, { key: null });
    assert.equal(question.status, 200, question.text);
    assert.match(question.text, /Connect this github account to the Tributary user <strong>user\w+<\/strong>\?/);
    assert.equal((await t.request("GET", `/v1/accounts/connect/${start.body.data.id}`, { key: user.key })).body.data.status, "pending");
    const page = await answerOAuthCallback(t, back.pathname + back.search);
    assert.equal(page.status, 200, page.text);
    assert.match(String(page.headers["content-type"]), /text\/html/);
    assert.match(String(page.headers["content-security-policy"]), /default-src 'none'/);
    assert.match(page.text, /Your github account &#34;Work GitHub&#34; \(apn_[\w-]+\) is connected/);

    const flow = await t.request("GET", `/v1/accounts/connect/${start.body.data.id}`, { key: user.key });
    assert.equal(flow.body.data.status, "connected");
    const a = await account(user, flow.body.data.account_id);
    assert.equal(a.oauth, true);
    assert.equal(a.status, "ok");
    assert.equal(a.name, "Work GitHub");
    assert.ok(a.expires_at_ms > Date.now() + 3000_000);
    for (const f of ["oauth_access_token", "oauth_refresh_token", "oauth_uid", "expires_at", "scopes", "token_type"]) assert.ok(a.auth_fields.includes(f), f);
    assert.ok(!JSON.stringify(a).includes("eyJ"), "no token is shown");
    // another user can't see the flow
    assertErrorEnvelope(await t.request("GET", `/v1/accounts/connect/${start.body.data.id}`, { key: other.key }), 404, "not_found");

    // the same callback again (a replayed state) makes nothing, asked or answered
    const again = await t.request("GET", back.pathname + back.search, { key: null });
    assert.equal(again.status, 400);
    assert.match(again.text, /expired or was used already/);
    const form = new URLSearchParams(back.search);
    form.set("decision", "connect");
    const replayed = await t.request("POST", "/oauth/callback", { key: null, raw: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    assert.equal(replayed.status, 400);
    assert.match(replayed.text, /expired or was used already/);
  });

  it("a source uses the account's token; a token about to expire is refreshed once however many runs ask", async () => {
    expiresIn = 3600;
    const { flow } = await connect(user);
    const accountId = (await t.request("GET", `/v1/accounts/connect/${flow}`, { key: user.key })).body.data.account_id;
    const src = await t.request("POST", "/v1/sources", { key: user.key, body: { component_code: SOURCE, configured_props: { github: { authProvisionId: accountId } } } });
    assert.equal(src.status, 200, src.text);
    const sourceId = src.body.data.id;
    assert.equal((await t.request("POST", `/v1/sources/${sourceId}/run`, { key: user.key })).status, 202);
    const [first] = await waitEvents(t, sourceId, 1, "", 10_000, user.key);
    assert.ok(typeof first.event.token === "string" && first.event.token.length > 20);
    assert.ok(first.event.fields.includes("oauth_refresh_token"));

    // a reconnect gets a 2 s token: runs refresh it in the second half of its life
    expiresIn = 2;
    const refreshesBefore = grants.filter((g) => g === "refresh_token").length;
    // make the current token one that expires soon: a refresh gives a 60 s one, so each run would refresh
    const expiring = await connect(user, {}, `/v1/accounts/${accountId}/reconnect`);
    assert.equal(expiring.page.status, 200, expiring.page.text);
    assert.match(expiring.page.text, /is reconnected/);
    const refreshesAtStart = grants.filter((g) => g === "refresh_token").length;
    assert.equal(refreshesAtStart, refreshesBefore);
    const a = await account(user, accountId);
    assert.ok(a.expires_at_ms < Date.now() + 3000);
    expiresIn = 3600;
    await inRefreshWindow(a.expires_at_ms);

    // five runs at once: one refresh, and every run gets the refreshed token
    await Promise.all(Array.from({ length: 5 }, () => t.request("POST", `/v1/sources/${sourceId}/run`, { key: user.key })));
    const events = await waitEvents(t, sourceId, 6, "", 15_000, user.key);
    const refreshes = grants.filter((g) => g === "refresh_token").length - refreshesAtStart;
    assert.equal(refreshes, 1, "one refresh");
    const tokens = new Set(events.slice(0, 5).map((e: { event: { token: string } }) => e.event.token));
    assert.ok(!tokens.has(first.event.token));
    assert.equal(refreshes, tokens.size, "one refresh per distinct token the runs saw: concurrent runs shared one");
    assert.equal((await eventsOf(t, sourceId, "$errors", user.key)).length, 0);
  });

  it("a refused refresh marks the account and fails the run with AccountError; reconnecting fixes it", async () => {
    expiresIn = 2;
    const { flow } = await connect(user, { app: "github", name: "revoked" });
    const accountId = (await t.request("GET", `/v1/accounts/connect/${flow}`, { key: user.key })).body.data.account_id;
    // the provider forgets every refresh token it gave
    const refreshSpy = (res: { body: Record<string, unknown> }) => {
      if (typeof res.body.refresh_token === "string") revoked.add(res.body.refresh_token);
    };
    provider.service.on("beforeResponse", refreshSpy);
    try {
      // its current refresh token, revoked by a new connect of the same account
      const again = await connect(user, {}, `/v1/accounts/${accountId}/reconnect`);
      assert.equal(again.page.status, 200);
      const src = await t.request("POST", "/v1/sources", { key: user.key, body: { component_code: SOURCE, configured_props: { github: { authProvisionId: accountId } } } });
      const sourceId = src.body.data.id;
      await inRefreshWindow((await account(user, accountId)).expires_at_ms);
      assert.equal((await t.request("POST", `/v1/sources/${sourceId}/run`, { key: user.key })).status, 202);
      const [err] = await waitEvents(t, sourceId, 1, "$errors", 10_000, user.key);
      assert.equal(err.event.error.name, "AccountError");
      assert.match(err.event.error.message, new RegExp(`account ${accountId}: the provider refused to refresh its token \\(invalid_grant`));
      const a = await account(user, accountId);
      assert.equal(a.status, "error");
      assert.match(a.status_reason, /invalid_grant/);
      assert.equal((await eventsOf(t, sourceId, "", user.key)).length, 0);

      // a reconnect with a token that lasts gives a working account again
      provider.service.off("beforeResponse", refreshSpy);
      expiresIn = 3600;
      const fixed = await connect(user, {}, `/v1/accounts/${accountId}/reconnect`);
      assert.equal(fixed.page.status, 200, fixed.page.text);
      assert.equal((await account(user, accountId)).status, "ok");
      assert.equal((await t.request("POST", `/v1/sources/${sourceId}/run`, { key: user.key })).status, 202);
      await waitEvents(t, sourceId, 1, "", 10_000, user.key);
    } finally {
      provider.service.off("beforeResponse", refreshSpy);
    }
  });

  it("forged, missing and refused states make nothing; errors the provider gives are shown", async () => {
    const forged = await t.request("GET", "/oauth/callback?code=abc&state=forged-state-value", { key: null });
    assert.equal(forged.status, 400);
    assert.match(forged.text, /expired or was used already/);
    const missing = await t.request("GET", "/oauth/callback?code=abc", { key: null });
    assert.equal(missing.status, 400);
    assert.match(missing.text, /no state/);

    const start = await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: "github" } });
    const state = new URL(start.body.data.authorize_url).searchParams.get("state")!;
    const denied = await t.request("GET", `/oauth/callback?error=access_denied&error_description=${encodeURIComponent("<b>no</b>")}&state=${state}`, { key: null });
    assert.equal(denied.status, 400);
    assert.match(denied.text, /did not authorize the connection: access_denied \(&#60;b&#62;no&#60;\/b&#62;\)/);
    assert.ok(!denied.text.includes("<b>"), "the provider's text is escaped");
    const flow = await t.request("GET", `/v1/accounts/connect/${start.body.data.id}`, { key: user.key });
    assert.equal(flow.body.data.status, "failed");
    assert.match(flow.body.data.error, /access_denied/);
  });

  it("a callback that reaches a browser signed in to the dashboard as another user makes nothing", async () => {
    const signIn = await t.request("POST", "/dashboard/session", { key: null, body: { key: other.key }, headers: { "x-tributary-dashboard": "1" } });
    assert.equal(signIn.status, 200, signIn.text);
    const cookie = String(signIn.headers["set-cookie"]).split(";")[0]!;
    const start = await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: "github", name: "hijacked" } });
    const res = await fetch(start.body.data.authorize_url, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    const page = await answerOAuthCallback(t, back.pathname + back.search, { headers: { cookie } });
    assert.equal(page.status, 403);
    assert.match(page.text, /started by another user/);
    const mine = await t.request("GET", "/v1/users/me/accounts", { key: user.key });
    const theirs = await t.request("GET", "/v1/users/me/accounts", { key: other.key });
    assert.ok(![...mine.body.data, ...theirs.body.data].some((a: { name: string }) => a.name === "hijacked"));
  });

  it("Cancel on the question page makes nothing, and the flow says why", async () => {
    const start = await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: "github", name: "declined" } });
    const res = await fetch(start.body.data.authorize_url, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    const page = await answerOAuthCallback(t, back.pathname + back.search, { decision: "cancel" });
    assert.equal(page.status, 400);
    assert.match(page.text, /chose not to connect/);
    const flow = await t.request("GET", `/v1/accounts/connect/${start.body.data.id}`, { key: user.key });
    assert.equal(flow.body.data.status, "failed");
    const list = await t.request("GET", "/v1/users/me/accounts", { key: user.key });
    assert.ok(!list.body.data.some((a: { name: string }) => a.name === "declined"));
  });

  it("a code the token endpoint refuses (PKCE verifier mismatch) makes no account", async () => {
    const start = await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: "github", name: "tampered" } });
    const url = new URL(start.body.data.authorize_url);
    // an attacker's challenge in place of ours: the provider binds the code to it, our verifier fails
    url.searchParams.set("code_challenge", "A".repeat(43));
    const res = await fetch(url, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    const page = await answerOAuthCallback(t, back.pathname + back.search);
    assert.ok(page.status >= 400, page.text);
    const list = await t.request("GET", "/v1/users/me/accounts", { key: user.key });
    assert.ok(!list.body.data.some((a: { name: string }) => a.name === "tampered"));
  });

  it("bad connect requests; another user's account can't be reconnected", async () => {
    assertErrorEnvelope(await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: "gitlab" } }), 404, "not_found");
    const bad = await t.request("POST", "/v1/accounts/connect", { key: user.key, body: { app: 5, name: "", scopes: ["a b"], x: 1 } });
    assertErrorEnvelope(bad, 400, "invalid_request");
    assert.deepEqual(bad.body.error.details.map((d: { field: string }) => d.field).sort(), ["app", "name", "scopes", "x"]);
    const { flow } = await connect(user, { app: "github", name: "mine" });
    const accountId = (await t.request("GET", `/v1/accounts/connect/${flow}`, { key: user.key })).body.data.account_id;
    assertErrorEnvelope(await t.request("POST", `/v1/accounts/${accountId}/reconnect`, { key: other.key, body: {} }), 404, "not_found");
    assertErrorEnvelope(await t.request("POST", "/v1/accounts/connect", { key: null, body: { app: "github" } }), 401, "unauthorized");
    // an account given by hand can't be reconnected through an app nobody configured
    const manual = await t.request("POST", "/v1/accounts", { key: user.key, body: { app: "slack", auth: { token: "x" } } });
    assertErrorEnvelope(await t.request("POST", `/v1/accounts/${manual.body.data.id}/reconnect`, { key: user.key }), 404, "not_found");
  });
});

describe("OAuth refresh across nodes", { skip: process.env.TRIBUTARY_TEST_STORE !== "postgres" && "two services share one database only with PostgreSQL" }, () => {
  it("two services that need the same expiring token at once: one refresh, both get its token", async () => {
    const provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    let serial = 0;
    let refreshes = 0;
    let expiresIn = 2;
    provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => void (token.payload.serial = ++serial));
    provider.service.on("beforeResponse", (res: { body: Record<string, unknown> }, req: IncomingMessage & { body: Record<string, string> }) => {
      if (req.body.grant_type === "refresh_token") refreshes += 1;
      res.body.expires_in = expiresIn;
      delete res.body.id_token;
    });
    const secretKey = "ab".repeat(32);
    const a = await startApp({ TRIBUTARY_SECRET_KEY: secretKey });
    const b = await startApp({ ...a.storeEnv, TRIBUTARY_SECRET_KEY: secretKey, TRIBUTARY_ADMIN_KEY: a.adminKey });
    try {
      const issuer = provider.issuer.url!;
      const app = { app: "github", client_id: "c", client_secret: "s", authorize_url: `${issuer}/authorize`, token_url: `${issuer}/token` };
      assert.equal((await a.request("POST", "/v1/oauth_apps", { body: app })).status, 200);
      const start = await a.request("POST", "/v1/accounts/connect", { body: { app: "github" } });
      const res = await fetch(start.body.data.authorize_url, { redirect: "manual" });
      const back = new URL(res.headers.get("location")!);
      assert.equal((await answerOAuthCallback(a, back.pathname + back.search)).status, 200);
      const flow = await a.request("GET", `/v1/accounts/connect/${start.body.data.id}`);
      const accountId = flow.body.data.account_id as string;
      const owner = (await a.request("GET", `/v1/accounts/${accountId}`)).body.data;
      assert.ok(owner.expires_at_ms < Date.now() + 3000);
      // the refreshed token lives long, though a short one would do as well: the second service
      // sees that the expiry it found too close has changed, and takes the new token
      expiresIn = 60;
      await inRefreshWindow(owner.expires_at_ms);
      const me = (await a.request("GET", "/v1/users/me")).body.data.id as string;
      const [ta, tb] = await Promise.all([a.app.core.runtime.accountAuth.auth(me, accountId), b.app.core.runtime.accountAuth.auth(me, accountId)]);
      assert.equal(refreshes, 1, "one refresh for both services");
      assert.equal(ta!.oauth_access_token, tb!.oauth_access_token);
    } finally {
      await b.app.close();
      await a.close();
      await provider.stop();
    }
  });
});
