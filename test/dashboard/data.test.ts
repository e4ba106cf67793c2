import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, go as goTo, modalShown as modalFadedIn, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import type {} from "node:net";
import { join } from "node:path";
import { type Locator, type Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers.ts";

// The dashboard's environment variables and data stores pages in headless Chromium (Debian's
// `chromium`, driven by playwright-core), checked against the API: a secret's value never reaches
// the page, the API's field problems show at their inputs, records page with Load more. Each page
// is saved as a screenshot under test-output/screenshots/, at desktop width and 420 px.


const DESKTOP = { width: 1280, height: 860 };
const NARROW = { width: 420, height: 860 };
/** An input's label, exactly: Mantine adds " *" to a required one's. */
const labelled = (text: string) => new RegExp(`^${text.replace(/[()]/g, "\\$&")}( \\*)?$`);
const SECRET = "xoxb-very-secret-token-1f2e3d";
const NEW_SECRET = "xoxb-replacement-token-9a8b7c";

describe("dashboard: environment variables and data stores", { skip: browserSkip }, () => {
  let t: TestApp;
  let page: Page;
  let dash: Dashboard | undefined;

  before(async () => {
    t = await startApp();
    dash = await openDashboard(t, { clipboard: true, viewport: DESKTOP });
    ({ page } = dash);
    // a missing element fails its test in 10 s, not the default 30
    page.setDefaultTimeout(10_000);
  });

  // the page as it was when a test failed, to see why
  afterEach(async (c) => {
    if (!("passed" in c) || !c.passed) await page?.screenshot({ path: join(SHOTS, `failed-${c.name.slice(0, 40).replace(/\W+/g, "-")}.png`), fullPage: true }).catch(() => {});
  });

  after(async () => {
    await dash?.close();
    await t?.close();
  });

  const shot = async (name: string) => {
    // from the top: a full-page shot of a scrolled page draws the fixed header mid-page
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  /** The page at desktop width, then at 420 px (where nothing may widen the page), then back. */
  const shots = async (name: string) => {
    await shot(name);
    await page.setViewportSize(NARROW);
    // the navbar slides away when the page becomes narrow: shoot once it has gone
    await page.waitForFunction(() => {
      const w = globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { right: number } } | null } };
      return (w.document.querySelector(".mantine-AppShell-navbar")?.getBoundingClientRect().right ?? 0) <= 0;
    });
    await shot(`${name}-420`);
    const wide = await page.evaluate("document.documentElement.scrollWidth");
    assert.ok(Number(wide) <= NARROW.width, `${name} is ${wide} px wide at ${NARROW.width} px`);
    await page.setViewportSize(DESKTOP);
  };
  const modalShown = () => modalFadedIn(page);
  const go = (hash: string) => goTo(page, hash);
  /** The error Mantine shows under an input (its wrapper's error line). */
  const fieldError = (scope: Locator, text: RegExp) => scope.locator(".mantine-InputWrapper-error").getByText(text);
  const envVars = async () => (await t.request("GET", "/v1/users/me/env")).body.data as { name: string; secret: boolean; value?: string }[];

  it("env vars: adds a plain and a secret one; the secret's value never reaches the page", async () => {
    await go("#/env");
    await page.getByRole("heading", { name: "Environment variables", exact: true }).waitFor();
    await page.getByText("No variables yet").waitFor();
    await page.getByText("process.env.NAME", { exact: true }).waitFor();
    const form = page.getByTestId("add-env-var");
    await form.getByLabel(labelled("Name")).fill("REGION");
    await form.getByLabel(labelled("Value")).fill("eu-west-1");
    await form.getByRole("button", { name: "Add variable" }).click();
    const region = page.locator('[data-testid="env-var"][data-name="REGION"]');
    await region.getByTestId("env-value").getByText("eu-west-1").waitFor();
    assert.equal(await form.getByLabel(labelled("Name")).inputValue(), "", "the form is cleared");

    await form.getByLabel(labelled("Name")).fill("SLACK_TOKEN");
    await form.getByRole("switch", { name: "Secret" }).click();
    await form.getByLabel(labelled("Value")).fill(SECRET);
    assert.equal(await form.getByLabel(labelled("Value")).getAttribute("type"), "password", "a secret is typed masked");
    await form.getByRole("button", { name: "Add variable" }).click();
    const secret = page.locator('[data-testid="env-var"][data-name="SLACK_TOKEN"]');
    await secret.getByTestId("secret").waitFor();
    assert.equal(await secret.getByTestId("copy").count(), 0, "nothing to copy for a secret");
    assert.ok(!(await page.content()).includes(SECRET), "the secret's value is in the page");
    const listed = await envVars();
    const token = listed.find((v) => v.name === "SLACK_TOKEN");
    assert.equal(token?.secret, true);
    assert.ok(token && !("value" in token), JSON.stringify(token));
    assert.equal(listed.find((v) => v.name === "REGION")?.value, "eu-west-1");

    // the plain value copies
    await region.getByTestId("copy").click();
    await region.locator('[data-testid="copy"][data-copied]').waitFor();
    assert.equal(await page.evaluate("navigator.clipboard.readText()"), "eu-west-1");

    // a reload reads them back from the API: still no secret value
    await page.reload();
    await secret.getByTestId("secret").waitFor();
    assert.ok(!(await page.content()).includes(SECRET));
    await shots("env-vars");
  });

  it("env vars: a secret is replaced from an empty box, a plain one is edited, a bad name shows the API's message at the field", async () => {
    const secret = page.locator('[data-testid="env-var"][data-name="SLACK_TOKEN"]');
    await secret.getByRole("button", { name: "Replace value" }).click();
    const edit = page.getByTestId("edit-env-var");
    await modalShown();
    assert.equal(await edit.getByLabel(labelled("New value")).inputValue(), "", "the box starts empty");
    await edit.getByLabel(labelled("New value")).fill(NEW_SECRET);
    await shot("env-var-replace-secret");
    await edit.getByRole("button", { name: "Replace value" }).click();
    await edit.waitFor({ state: "detached" });
    const content = await page.content();
    assert.ok(!content.includes(SECRET) && !content.includes(NEW_SECRET), "a secret's value is in the page");
    assert.equal((await envVars()).find((v) => v.name === "SLACK_TOKEN")?.secret, true);

    const region = page.locator('[data-testid="env-var"][data-name="REGION"]');
    await region.getByRole("button", { name: "Edit" }).click();
    await modalShown();
    assert.equal(await edit.getByLabel(labelled("Value")).inputValue(), "eu-west-1", "a plain value starts as it is");
    await edit.getByLabel(labelled("Value")).fill("us-east-2");
    await edit.getByRole("button", { name: "Save" }).click();
    await region.getByTestId("env-value").getByText("us-east-2").waitFor();
    assert.equal((await envVars()).find((v) => v.name === "REGION")?.value, "us-east-2");

    const form = page.getByTestId("add-env-var");
    await form.getByLabel(labelled("Name")).fill("2BAD-NAME");
    await form.getByLabel(labelled("Value")).fill("x");
    await form.getByRole("button", { name: "Add variable" }).click();
    await fieldError(form, /must be 1 to 128 letters, digits or '_', not starting with a digit/).waitFor();
    assert.equal(await form.getByLabel(labelled("Name")).getAttribute("aria-invalid"), "true");
    assert.equal((await envVars()).length, 2);
    await shots("env-var-bad-name");
  });

  it("env vars: delete asks first, and the API no longer has it", async () => {
    const region = page.locator('[data-testid="env-var"][data-name="REGION"]');
    await region.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete REGION?").waitFor();
    await dialog.getByText(/no longer have process\.env\.REGION/).waitFor();
    await modalShown();
    await shot("env-var-delete-confirm");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await region.waitFor({ state: "detached" });
    assert.deepEqual((await envVars()).map((v) => v.name), ["SLACK_TOKEN"]);
  });

  let storeId = "";

  it("data stores: creates one, renames it, opens it from its row", async () => {
    await go("#/data-stores");
    await page.getByRole("heading", { name: "Data stores", exact: true }).waitFor();
    await page.getByText("No data stores yet").waitFor();
    await shot("data-stores-empty");
    const create = page.getByTestId("create-store");
    await create.getByLabel(labelled("Data store name")).fill("orders");
    await create.getByRole("button", { name: "Create data store" }).click();
    const row = page.getByTestId("data-store").filter({ hasText: "orders" });
    await row.waitFor();
    storeId = String(await row.getAttribute("data-id"));
    assert.match(storeId, /^ds_/);
    await row.getByText(storeId).waitFor();

    await row.getByRole("button", { name: "Rename" }).click();
    await modalShown();
    const dialog = page.getByRole("dialog");
    assert.equal(await dialog.getByLabel(labelled("Data store name")).inputValue(), "orders");
    await dialog.getByLabel(labelled("Data store name")).fill("orders 2024");
    await dialog.getByRole("button", { name: "Rename" }).click();
    await page.getByTestId("data-store").getByRole("link", { name: "orders 2024" }).waitFor();
    assert.equal((await t.request("GET", `/v1/data_stores/${storeId}`)).body.data.name, "orders 2024");
    // a name the API refuses shows its message at the field
    await create.getByLabel(labelled("Data store name")).fill("x".repeat(201));
    await create.getByRole("button", { name: "Create data store" }).click();
    await fieldError(create, /at most 200 characters/).waitFor();
    await create.getByLabel(labelled("Data store name")).fill("");
    await shots("data-stores");

    await page.getByTestId("data-store").getByTestId("record-count").click();
    await page.getByRole("heading", { name: "orders 2024", exact: true }).waitFor();
    await page.getByText("No records yet").waitFor();
  });

  it("data stores: adds records (a TTL shows when it expires), refuses invalid JSON and a key already there", async () => {
    const add = async (key: string, value: string) => {
      await page.getByRole("button", { name: "Add a record" }).click();
      await modalShown();
      const form = page.getByTestId("record-form");
      await form.getByLabel(labelled("Key")).fill(key);
      await form.getByLabel(labelled("Value (JSON)")).fill(value);
      return form;
    };
    let form = await add("order/42", '{"total": 12.5, "items": ["tea", "scones"], "customer": {"name": "Ada"}}');
    await form.getByRole("button", { name: "Add record" }).click();
    const order = page.locator('[data-testid="record"][data-key="order/42"]');
    await order.getByTestId("record-value").getByText("12.5", { exact: true }).waitFor();
    await order.getByTestId("expiry").getByText("never").waitFor();

    form = await add("session/abc", '"a session"');
    await form.getByText("Expires after", { exact: true }).click();
    await form.getByLabel(labelled("TTL (seconds)")).fill("3600");
    await shot("record-add-ttl");
    const before = Date.now();
    await form.getByRole("button", { name: "Add record" }).click();
    const session = page.locator('[data-testid="record"][data-key="session/abc"]');
    await session.getByTestId("expiry").getByText(/^in (59 min|1 h)$/).waitFor();
    const saved = (await t.request("GET", `/v1/data_stores/${storeId}/records/session%2Fabc`)).body.data;
    assert.ok(saved.expires_at_ms >= before + 3600_000 - 1000 && saved.expires_at_ms <= Date.now() + 3600_000, JSON.stringify(saved));
    assert.equal(Number(await session.getByTestId("expiry").getAttribute("data-expires-at")), saved.expires_at_ms);

    form = await add("bad", "{nope: 1");
    await form.getByRole("button", { name: "Add record" }).click();
    await fieldError(form, /not valid JSON/).waitFor();
    await shot("record-invalid-json");
    assert.equal((await t.request("GET", `/v1/data_stores/${storeId}/records/bad`)).status, 404, "invalid JSON is never sent");
    await form.getByLabel(labelled("Key")).fill("order/42");
    await form.getByLabel(labelled("Value (JSON)")).fill("1");
    await form.getByRole("button", { name: "Add record" }).click();
    await fieldError(form, /exists/).waitFor();
    assert.equal((await t.request("GET", `/v1/data_stores/${storeId}/records/order%2F42`)).body.data.value.total, 12.5, "not overwritten");
    await form.getByRole("button", { name: "Cancel" }).click();
    await form.waitFor({ state: "detached" });
    await page.getByTestId("store-summary").getByText(/^2 records ·/).waitFor();
    await shots("data-store");
  });

  it("data stores: edits a record's value and expiry, deletes one", async () => {
    const order = page.locator('[data-testid="record"][data-key="order/42"]');
    await order.getByRole("button", { name: "Edit" }).click();
    await modalShown();
    const form = page.getByTestId("record-form");
    assert.deepEqual(JSON.parse(await form.getByLabel(labelled("Value (JSON)")).inputValue()), { total: 12.5, items: ["tea", "scones"], customer: { name: "Ada" } });
    assert.equal(await form.getByLabel(labelled("Key")).isDisabled(), true);
    await form.getByLabel(labelled("Value (JSON)")).fill('{"total": 99, "paid": true}');
    await shot("record-edit");
    await form.getByRole("button", { name: "Save" }).click();
    await order.getByTestId("record-value").getByText("99", { exact: true }).waitFor();
    const got = (await t.request("GET", `/v1/data_stores/${storeId}/records/order%2F42`)).body.data;
    assert.deepEqual(got, { key: "order/42", value: { total: 99, paid: true }, expires_at_ms: null });

    // a TTL changed to never
    const session = page.locator('[data-testid="record"][data-key="session/abc"]');
    await session.getByRole("button", { name: "Edit" }).click();
    await modalShown();
    await form.getByText("Never expires", { exact: true }).click();
    await form.getByRole("button", { name: "Save" }).click();
    await session.getByTestId("expiry").getByText("never").waitFor();
    assert.equal((await t.request("GET", `/v1/data_stores/${storeId}/records/session%2Fabc`)).body.data.expires_at_ms, null);

    await session.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete this record?").waitFor();
    await modalShown();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await session.waitFor({ state: "detached" });
    assert.equal((await t.request("GET", `/v1/data_stores/${storeId}/records/session%2Fabc`)).status, 404);
    await page.getByTestId("store-summary").getByText(/^1 record ·/).waitFor();
  });

  it("data stores: records page with Load more, and filter by key prefix", async () => {
    for (let i = 0; i < 60; i++) {
      const res = await t.request("PUT", `/v1/data_stores/${storeId}/records/k%2F${String(i).padStart(3, "0")}`, { body: { value: { n: i } } });
      assert.equal(res.status, 200, res.text);
    }
    await page.reload();
    const rows = page.getByTestId("record");
    await page.locator('[data-testid="record"][data-key="k/049"]').waitFor();
    assert.equal(await rows.count(), 50);
    const more = page.getByTestId("load-more");
    await more.getByText("50 of 61 records").waitFor();
    await more.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "records-load-more-bottom.png") });
    await more.getByRole("button", { name: "Load more" }).click();
    await more.getByText("61 of 61 records").waitFor();
    assert.equal(await rows.count(), 61);
    assert.equal(await rows.last().getAttribute("data-key"), "order/42", "keys in order");

    await page.getByTestId("prefix").fill("k/05");
    await page.locator('[data-testid="record"][data-key="k/050"]').waitFor();
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<object> } }).document.querySelectorAll('[data-testid="record"]').length === 10);
    await page.getByTestId("prefix").fill("zzz");
    await page.getByText("No matching keys").waitFor();
    await page.getByTestId("empty-state").getByText("Show all records").click();
    await page.locator('[data-testid="record"][data-key="k/000"]').waitFor();
  });

  it("data stores: deleting one says its records go too", async () => {
    await page.getByTestId("store-actions").getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete orders 2024?").waitFor();
    await dialog.getByText(/its 61 records are deleted/).waitFor();
    await modalShown();
    // the viewport only: a full-page shot of a long list draws the modal's overlay over its top alone
    await page.screenshot({ path: join(SHOTS, "data-store-delete-confirm.png") });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Data stores", exact: true }).waitFor();
    await page.getByText("No data stores yet").waitFor();
    assert.equal((await t.request("GET", `/v1/data_stores/${storeId}`)).status, 404);
  });

  it("another user's data store id shows 'not found', not its data", async () => {
    const other = await t.newUser();
    const theirs = await t.request("POST", "/v1/data_stores", { key: other.key, body: { name: "Somebody else's store" } });
    assert.equal(theirs.status, 200, theirs.text);
    await go(`#/data-stores/${theirs.body.data.id}`);
    await page.getByTestId("empty-state").getByText("Data store not found").waitFor();
    assert.equal(await page.getByText("Somebody else's store").count(), 0);
    await shots("data-store-not-found");
  });
});
