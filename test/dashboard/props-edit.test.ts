import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { browserSkip, go, modalShown, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// The dashboard's other props forms with dynamic props (docs/writing-components.md, "Dynamic props"), in headless Chromium:
// a deployed source's props edited from its current values (an account, options loaded from
// options() with that account's auth, a secret kept, a prop additionalProps() added), and a
// workflow's action step whose options load (a `{{ }}` expression typed instead of an option,
// props reloaded by a reloadProps prop). Every outcome is checked through the API. Screenshots under
// test-output/screenshots/props-edit-*.png.

const FRUITS = ["apple", "apricot", "avocado", "banana", "blackberry", "blueberry", "cherry", "date", "fig", "grape"];

const SOURCE = `
const FRUITS = ${JSON.stringify(FRUITS)};
export default {
  key: "dyn_edit",
  name: "Dynamic edit",
  version: "0.1.0",
  props: {
    shop: { type: "app", app: "fruitshop", label: "Shop" },
    fruit: {
      type: "string",
      label: "Fruit",
      async options({ prevContext }) {
        const at = prevContext.at ?? 0;
        const options = FRUITS.slice(at, at + 5).map((f) => ({ label: f + " (" + this.shop.$auth.region + ")", value: f }));
        return at + 5 < FRUITS.length ? { options, context: { at: at + 5 } } : { options };
      },
    },
    token: { type: "string", label: "Token", secret: true },
    mode: { type: "string", label: "Mode", reloadProps: true, options: ["simple", "advanced"], default: "simple" },
  },
  async additionalProps() {
    return this.mode === "advanced" ? { depth: { type: "integer", label: "Depth", min: 1 } } : {};
  },
  async run() {},
};`;

const COLORS = ["red", "green", "blue", "cyan", "magenta", "yellow"];

const ACTION = `
const COLORS = ${JSON.stringify(COLORS)};
export default {
  key: "dyn_action",
  name: "Dynamic action",
  version: "0.1.0",
  type: "action",
  props: {
    color: {
      type: "string",
      label: "Color",
      async options({ prevContext }) {
        const at = prevContext.at ?? 0;
        const options = COLORS.slice(at, at + 4).map((c) => ({ label: c.toUpperCase(), value: c }));
        return at + 4 < COLORS.length ? { options, context: { at: at + 4 } } : { options };
      },
    },
    shade: { type: "string", label: "Shade", options: ["light", "dark"] },
    size: { type: "string", label: "Size", reloadProps: true, options: ["one", "many"], default: "one" },
  },
  async additionalProps() {
    return this.size === "many" ? { count: { type: "integer", label: "Count", min: 1 } } : {};
  },
  async run() {
    return this.shade + " " + this.color;
  },
};`;

describe("dashboard: editing props with dynamic props", { skip: browserSkip }, () => {
  let t: TestApp;
  let d: Dashboard;
  let sourceComponent: string;
  let accountId: string;
  const shot = (name: string) => d.page.screenshot({ path: join(SHOTS, `props-edit-${name}.png`), fullPage: true });

  before(async () => {
    t = await startApp();
    for (const code of [SOURCE, ACTION]) {
      const saved = await t.request("POST", "/v1/components/registry", { body: { component_code: code } });
      assert.equal(saved.status, 200, saved.text);
      if (code === SOURCE) sourceComponent = saved.body.data.id;
    }
    const account = await t.request("POST", "/v1/accounts", { body: { app: "fruitshop", name: "North shop", auth: { region: "north" } } });
    assert.equal(account.status, 200, account.text);
    accountId = account.body.data.id;
    d = await openDashboard(t);
  });
  after(async () => {
    await d?.close();
    await t.close();
  });

  it("edits a deployed source's props from its current values, choosing another option loaded from options()", async () => {
    const created = await t.request("POST", "/v1/sources/", {
      body: {
        component_id: sourceComponent,
        name: "Editable",
        configured_props: { shop: { authProvisionId: accountId }, fruit: "apple", token: "s3cret", mode: "advanced", depth: 2 },
      },
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.data.id;
    const page = d.page;
    await go(page, `#/sources/${id}/props`);
    const form = page.getByTestId("source-props-form");
    await form.waitFor();
    // the current values: the account, the option, the secret left empty (kept), the prop additionalProps() added
    // the account select shows its value once the accounts have loaded
    await waitFor(async () => (await form.getByLabel("Shop").inputValue()) === accountId || undefined, 10_000, "the source's account chosen");
    assert.equal(await form.getByLabel("Fruit").inputValue(), "apple");
    assert.equal(await form.getByLabel("Token").inputValue(), "");
    assert.equal(await form.getByLabel("Mode").inputValue(), "advanced");
    await form.getByLabel("Depth").waitFor();
    assert.equal(await form.getByLabel("Depth").inputValue(), "2");

    // the options, asked with the source's account (its auth's region in their labels), a page at a time
    const listbox = page.getByRole("listbox");
    const options = listbox.locator('[role="option"]:not([data-load-more])');
    await form.getByLabel("Fruit").click();
    await options.filter({ hasText: "apple (north)" }).waitFor();
    assert.deepEqual(await options.allTextContents(), FRUITS.slice(0, 5).map((f) => `${f} (north)`));
    await listbox.locator("[data-load-more]").click();
    await options.filter({ hasText: "fig (north)" }).click();
    assert.equal(await form.getByLabel("Fruit").inputValue(), "fig (north)");
    await form.getByLabel("Depth").fill("4");
    await shot("source");
    await form.getByRole("button", { name: "Save props" }).click();
    await page.getByText("Props saved").waitFor();

    const got = await t.request("GET", `/v1/sources/${id}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body.data.configured_props, { shop: { authProvisionId: accountId }, fruit: "fig", token: "********", mode: "advanced", depth: 4 });
  });

  it("an action step's prop with options loads them; another takes a {{ }} expression instead of its options", async () => {
    const made = await t.request("POST", "/v1/workflows", {
      body: { name: "Colors", trigger: { type: "http" }, steps: [{ name: "first", code: 'export default { async run() { return "dark"; } };' }] },
    });
    assert.equal(made.status, 200, made.text);
    const id = made.body.data.id;
    const page = d.page;
    await go(page, `#/workflows/${id}/edit`);
    const form = page.getByTestId("workflow-form");
    await form.getByLabel("Code of first").waitFor();
    await form.getByRole("button", { name: "Add an action step" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an action step" });
    await modalShown(page);
    await dialog.getByTestId("registry-item").filter({ hasText: "Dynamic action" }).click();
    const step = form.locator('[data-testid="step"][data-step-name="dynamic_action"]');
    await step.waitFor();

    const listbox = page.getByRole("listbox");
    const options = listbox.locator('[role="option"]:not([data-load-more])');
    await step.getByLabel("Color").click();
    await options.filter({ hasText: "RED" }).waitFor();
    assert.deepEqual(await options.allTextContents(), ["RED", "GREEN", "BLUE", "CYAN"]);
    await options.filter({ hasText: "GREEN" }).click();
    assert.equal(await step.getByLabel("Color").inputValue(), "GREEN");

    // the Shade's options, or an expression of an earlier step's result
    await step.locator('[data-expression-or="shade"]').getByRole("button", { name: "Type an expression instead" }).click();
    await step.getByLabel("Shade").fill("{{ steps.first.$return_value }}");
    // a reloadProps prop's change adds the props additionalProps() gives for it
    assert.equal(await step.getByLabel("Count").count(), 0);
    await step.getByLabel("Size").selectOption("many");
    await step.getByLabel("Count").fill("3");
    await shot("action-step");
    await form.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Colors", exact: true }).waitFor();

    const w = (await t.request("GET", `/v1/workflows/${id}`)).body.data;
    assert.equal(w.steps[1].key, "dyn_action");
    assert.deepEqual(w.steps[1].props, { color: "green", shade: "{{ steps.first.$return_value }}", size: "many", count: 3 });
    const res = await t.app.http.inject({ method: "POST", url: new URL(w.trigger.endpoint_url).pathname, payload: {} });
    assert.equal(res.statusCode, 200);
    const run = await waitFor(async () => {
      const runs = (await t.request("GET", `/v1/workflows/${id}/runs`)).body.data;
      if (runs[0]?.status !== "succeeded") return undefined;
      return (await t.request("GET", `/v1/runs/${runs[0].id}`)).body.data;
    }, 20_000, "the run to succeed");
    assert.equal(run.steps[1].return_value, "dark green");

    // editing again: the chosen option, and the expression shown as typed
    await go(page, `#/workflows/${id}/edit`);
    await form.getByLabel("Code of first").waitFor();
    const again = form.locator('[data-testid="step"][data-step-name="dynamic_action"]');
    assert.equal(await again.getByLabel("Color").inputValue(), "green");
    assert.equal(await again.getByLabel("Shade").inputValue(), "{{ steps.first.$return_value }}");
    assert.equal(await again.getByLabel("Count").inputValue(), "3", "an added prop, from the step's saved props");
  });
});
