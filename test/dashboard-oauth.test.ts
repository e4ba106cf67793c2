import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import { startApp, waitEvents, type TestApp } from "./helpers.ts";
import { SHOTS, browserSkip, closedPort, go, openDashboard, type Dashboard } from "./browser.ts";

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

describe("dashboard: OAuth accounts", { skip: browserSkip }, () => {
  let t: TestApp;
  let d: Dashboard;
  let provider: OAuth2Server;
  let expiresIn = 3600;
  let refuseRefresh = false;

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
    });
    // the callback is reached by the browser: the public URL is where this service listens
    const port = await closedPort();
    t = await startApp({ TRIBUTARY_PUBLIC_URL: `http://127.0.0.1:${port}` });
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
  });

  async function connectInTab(button: string): Promise<void> {
    const tab = d.context.waitForEvent("page");
    await d.page.getByRole("button", { name: button }).click();
    const popup = await tab;
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
});
