import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";
import { answerOAuthCallback, startApp, waitEvents, type TestApp } from "../helpers.ts";
import { SHOTS, browserSkip, closedPort, go, openDashboard, type Dashboard } from "../browser.ts";

// Connecting an OAuth account from the dashboard, in a real browser against a real authorization
// server started here: "Connect github" opens the provider's page in a new tab, the provider
// sends that tab to the callback, and the accounts page shows the account once the callback made
// it. An account whose refresh the provider refuses is marked, and Reconnect makes it work again.

const SOURCE = `
export default {
  key: "dash-oauth",
  name: "Dash OAuth",
  version: "0.1.0",
  props: { github: { type: "app", app: "github" } },
  run() { this.$emit({ ok: typeof this.github.$auth.oauth_access_token === "string" }); },
};`;

/** A registry component as people write them: its repo prop lists the account's repos from the API. */
const REPOS_COMPONENT = (api: string) => `
export default {
  key: "gh_new_issues",
  name: "New issues",
  version: "0.1.0",
  props: {
    github: { type: "app", app: "github", label: "GitHub account" },
    repo: {
      type: "string",
      label: "Repository",
      async options() {
        const res = await fetch("${api}/user/repos", { headers: { authorization: "Bearer " + this.github.$auth.oauth_access_token } });
        if (!res.ok) throw new Error("the API answered " + res.status);
        return (await res.json()).map((r) => ({ label: r.full_name, value: r.full_name }));
      },
    },
  },
  async run() {
    const res = await fetch("${api}/repos/" + this.repo + "/issues", { headers: { authorization: "Bearer " + this.github.$auth.oauth_access_token } });
    if (!res.ok) throw new Error("the API answered " + res.status);
    this.$emit(await res.json());
  },
};`;

describe("dashboard: OAuth accounts", { skip: browserSkip }, () => {
  let t: TestApp;
  let d: Dashboard;
  let provider: OAuth2Server;
  let expiresIn = 3600;
  let refuseRefresh = false;
  /** access tokens the provider gave, with when each expires: the API takes only live ones */
  const live = new Map<string, number>();
  let api: Server;

  before(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    let serial = 0;
    provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => void (token.payload.serial = ++serial));
    provider.service.on("beforeResponse", (res: { body: Record<string, unknown>; statusCode: number }, req: IncomingMessage & { body: Record<string, string> }) => {
      if (req.body.grant_type === "refresh_token" && refuseRefresh) {
        res.statusCode = 400;
        res.body = { error: "invalid_grant", error_description: "revoked by the user" };
        return;
      }
      res.body.expires_in = expiresIn;
      delete res.body.id_token;
      live.set(res.body.access_token as string, Date.now() + expiresIn * 1000);
    });
    // a GitHub-like API that takes only tokens the provider gave and that haven't expired
    api = createServer((req, res) => {
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const until = live.get(token);
      if (until === undefined || until < Date.now()) return void res.writeHead(401).end("bad credentials");
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/user/repos") return void res.end(JSON.stringify([{ full_name: "ada/engine" }, { full_name: "ada/notes" }]));
      res.end(JSON.stringify({ url: req.url, at: Date.now() }));
    });
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
    const apiHost = `127.0.0.1:${(api.address() as AddressInfo).port}`;
    // the callback is reached by the browser: the public URL is where this service listens
    const port = await closedPort();
    t = await startApp({ TRIBUTARY_PUBLIC_URL: `http://127.0.0.1:${port}`, TRIBUTARY_FETCH_ALLOW: apiHost });
    const saved = await t.request("POST", "/v1/components/registry", { body: { component_code: REPOS_COMPONENT(`http://${apiHost}`) } });
    assert.equal(saved.status, 200, saved.text);
    const issuer = provider.issuer.url!;
    const configured = await t.request("POST", "/v1/oauth_apps", {
      body: { app: "github", client_id: "dash", client_secret: "s", authorize_url: `${issuer}/authorize`, token_url: `${issuer}/token`, scopes: ["repo"] },
    });
    assert.equal(configured.status, 200, configured.text);
    d = await openDashboard(t, { port });
  });
  after(async () => {
    await d?.close();
    await t?.close();
    await provider?.stop();
    await new Promise((r) => api?.close(r));
  });

  async function connectInTab(button: string): Promise<void> {
    const tab = d.context.waitForEvent("page");
    await d.page.getByRole("button", { name: button }).click();
    const popup = await tab;
    // the callback asks to whom the account goes: the signed-in admin
    await popup.getByText(/to the Tributary user admin\?/).waitFor({ timeout: 15_000 });
    await popup.getByRole("button", { name: "Connect" }).click();
    await popup.getByText(/is (re)?connected/).waitFor({ timeout: 15_000 });
    await popup.screenshot({ path: join(SHOTS, `oauth-callback-${button.replace(/\W+/g, "-").toLowerCase()}.png`) });
    await popup.close();
  }

  it("Connect opens the provider, the callback makes the account, the page lists it as OAuth", async () => {
    await go(d.page, "#/accounts");
    await d.page.getByRole("button", { name: "Connect github" }).waitFor();
    expiresIn = 2; // runs refresh it after a second
    await connectInTab("Connect github");
    const row = d.page.locator('[data-testid^="account-apn_"]').first();
    await row.getByText("OAuth", { exact: true }).waitFor({ timeout: 15_000 });
    await d.page.screenshot({ path: join(SHOTS, "oauth-accounts.png") });
  });

  it("a refused refresh marks the account; Reconnect makes it work again", async () => {
    const accounts = await t.request("GET", "/v1/users/me/accounts");
    const account = accounts.body.data[0];
    const src = await t.request("POST", "/v1/sources", { body: { component_code: SOURCE, configured_props: { github: { authProvisionId: account.id } } } });
    assert.equal(src.status, 200, src.text);
    refuseRefresh = true;
    // in the second half of its 2 s life: the run refreshes it, and the provider refuses
    await new Promise<void>((resolve) => {
      const check = () => (Date.now() >= account.expires_at_ms - 1000 ? resolve() : setTimeout(check, 50));
      check();
    });
    assert.equal((await t.request("POST", `/v1/sources/${src.body.data.id}/run`)).status, 202);
    await waitEvents(t, src.body.data.id, 1, "$errors");
    await d.page.reload();
    await d.page.getByTestId(`account-error-${account.id}`).waitFor();
    await d.page.screenshot({ path: join(SHOTS, "oauth-account-error.png") });

    refuseRefresh = false;
    expiresIn = 3600;
    await connectInTab("Reconnect");
    await d.page.getByTestId(`account-${account.id}`).getByText("OAuth", { exact: true }).waitFor({ timeout: 15_000 });
    assert.equal(await d.page.getByTestId(`account-error-${account.id}`).count(), 0);
    assert.equal((await t.request("POST", `/v1/sources/${src.body.data.id}/run`)).status, 202);
    const [event] = await waitEvents(t, src.body.data.id, 1);
    assert.equal(event.event.ok, true);
  });

  it("a source deployed from the dashboard lists the account's repos, and keeps working past its token's expiry", async () => {
    const accounts = await t.request("GET", "/v1/users/me/accounts");
    const account = accounts.body.data[0];
    const page = d.page;
    await go(page, "#/deploy/gh_new_issues");
    const form = page.getByTestId("deploy-form");
    await form.waitFor();
    await form.getByLabel("GitHub account").selectOption(account.id);
    const repo = form.getByLabel("Repository");
    await repo.click();
    const options = page.getByRole("listbox").getByRole("option");
    await options.filter({ hasText: "ada/notes" }).waitFor();
    assert.deepEqual(await options.allTextContents(), ["ada/engine", "ada/notes"]);
    await page.screenshot({ path: join(SHOTS, "oauth-options.png") });
    await options.filter({ hasText: "ada/notes" }).click();
    await form.getByRole("button", { name: "Deploy source" }).click();
    await page.getByRole("heading", { name: "new-issues" }).waitFor();
    const list = await t.request("GET", "/v1/users/me/sources/");
    const made = list.body.data.find((s: { name: string }) => s.name === "new-issues");
    assert.equal(made.configured_props.repo, "ada/notes");

    // the token lives 2 s: once it has expired, the next run refreshes it first and still works
    expiresIn = 2;
    const reconnect = await t.request("POST", `/v1/accounts/${account.id}/reconnect`, { body: {} });
    const res = await fetch(reconnect.body.data.authorize_url, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    assert.equal((await answerOAuthCallback(t, back.pathname + back.search)).status, 200);
    const short = (await t.request("GET", `/v1/accounts/${account.id}`)).body.data;
    await new Promise<void>((resolve) => {
      const check = () => (Date.now() > short.expires_at_ms + 50 ? resolve() : setTimeout(check, 50));
      check();
    });
    expiresIn = 3600;
    assert.equal((await t.request("POST", `/v1/sources/${made.id}/run`)).status, 202);
    const [event] = await waitEvents(t, made.id, 1);
    assert.equal(event.event.url, "/repos/ada/notes/issues");
    assert.equal((await t.request("GET", `/v1/sources/${made.id}/event_summaries?event_name=$errors`)).body.data.length, 0);
  });
});
