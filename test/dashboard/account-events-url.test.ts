import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers.ts";
import { browserSkip, go, modalShown, openDashboard, SHOTS, type Dashboard } from "../browser.ts";

// The accounts page shows each account's events_url (what a user pastes into Slack's Event
// Subscriptions or a webhook) with a copy button, replaces it after a confirm, and gives one to an
// account an older node made (events_url null). Checked against the API and the /app-events route.

const pathOf = (url: string) => new URL(url).pathname;

describe("dashboard: an account's events URL", { skip: browserSkip }, () => {
  let t: TestApp;
  let d: Dashboard;
  let page: Page;
  let slack: { id: string; events_url: string };
  const OLD_ID = "apn_oldnodeDash1";

  before(async () => {
    t = await startApp();
    const made = await t.request("POST", "/v1/accounts", { body: { app: "slack", name: "Team Slack", auth: { oauth_access_token: "xoxb-1" } } });
    assert.equal(made.status, 200, made.text);
    slack = made.body.data;
    // an account a node of the previous version made: no events key
    const row = (await t.app.store.accounts.byId(slack.id))!;
    await t.app.store.accounts.insert({ ...row, id: OLD_ID, name: "Old Slack", events_key: null });
    d = await openDashboard(t, { clipboard: true });
    page = d.page;
    page.setDefaultTimeout(10_000);
  });
  afterEach(async (c) => {
    if (!("passed" in c) || !c.passed) await page?.screenshot({ path: join(SHOTS, `failed-${c.name.slice(0, 40).replace(/\W+/g, "-")}.png`), fullPage: true }).catch(() => {});
  });
  after(async () => {
    await d?.close();
    await t?.close();
  });

  const block = (id: string) => page.getByTestId(`account-events-${id}`);
  const apiUrl = async (id: string) => (await t.request("GET", `/v1/accounts/${id}`)).body.data.events_url as string | null;

  it("shows the API's events URL with what it is for, and copies it", async () => {
    await go(page, "#/accounts");
    const url = block(slack.id).getByTestId("events-url");
    await url.getByText(slack.events_url, { exact: true }).waitFor();
    assert.equal(slack.events_url, await apiUrl(slack.id));
    await block(slack.id).getByText(/Paste this as the Request URL of your app's event subscriptions \/ webhook/).waitFor();
    await block(slack.id).getByTestId("copy").click();
    await block(slack.id).locator('[data-testid="copy"][data-copied]').waitFor();
    assert.equal(await page.evaluate("navigator.clipboard.readText()"), slack.events_url);
    await block(OLD_ID).getByText(/edit or reconnect the account to get one/).waitFor();
    await page.screenshot({ path: join(SHOTS, "account-events-url.png"), fullPage: true });

    // at 420 px the table scrolls inside its frame: the page doesn't widen
    await page.setViewportSize({ width: 420, height: 860 });
    await page.waitForFunction(() => {
      const w = globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { right: number } } | null } };
      return (w.document.querySelector(".mantine-AppShell-navbar")?.getBoundingClientRect().right ?? 0) <= 0;
    });
    const wide = Number(await page.evaluate("document.documentElement.scrollWidth"));
    await page.screenshot({ path: join(SHOTS, "account-events-url-420.png"), fullPage: true });
    assert.ok(wide <= 420, `the accounts page is ${wide} px wide at 420 px`);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("New URL asks first, then shows the new URL; the old one answers 404", async () => {
    await block(slack.id).getByRole("button", { name: "New URL" }).click();
    await modalShown(page);
    const dialog = page.getByRole("dialog");
    await dialog.getByText(/The current URL stops working at once/).waitFor();
    await page.screenshot({ path: join(SHOTS, "account-events-url-confirm.png") });
    await dialog.getByRole("button", { name: "New URL" }).click();
    await dialog.waitFor({ state: "detached" });
    const shown = block(slack.id).getByTestId("events-url");
    await shown.getByText(slack.events_url, { exact: true }).waitFor({ state: "detached" });
    const now = await apiUrl(slack.id);
    assert.ok(now && now !== slack.events_url, `replaced: ${now}`);
    assert.equal(await shown.textContent(), now);
    assert.equal((await t.request("POST", pathOf(slack.events_url), { key: null, body: { type: "event_callback", event: { type: "message" } } })).status, 404);
    assert.equal((await t.request("POST", pathOf(now), { key: null, body: { type: "event_callback", event: { type: "message" } } })).status, 200);
  });

  it("an account without one gets one; a failure shows the API's message", async () => {
    await block(OLD_ID).getByRole("button", { name: "Get a URL" }).click();
    const shown = block(OLD_ID).getByTestId("events-url");
    await shown.waitFor();
    const got = await apiUrl(OLD_ID);
    assert.match(got ?? "", /\/app-events\/[0-9a-f]{32}$/);
    assert.equal(await shown.textContent(), got);

    // the account deleted behind the page's back: replacing its URL fails with the API's 404
    assert.equal((await t.request("DELETE", `/v1/accounts/${OLD_ID}`)).status, 200);
    await block(OLD_ID).getByRole("button", { name: "New URL" }).click();
    await modalShown(page);
    await page.getByRole("dialog").getByRole("button", { name: "New URL" }).click();
    await block(OLD_ID).getByTestId("error").getByText(/not found/).waitFor();
  });
});
