import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, go as goTo, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import type {} from "node:net";
import { join } from "node:path";
import { type Locator, type Page } from "playwright-core";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// The dashboard's workflow editor in headless Chromium: steps typed in CodeMirror editors, a
// syntax error marked on its step's line, saved code shown again for editing, an action step
// from the registry with a `{{ }}` expression prop and a data store picked for it, settings, and
// Run now with a JSON body. Every outcome is checked through the API. Screenshots (desktop and
// 420 px wide) go under test-output/screenshots/workflow-editor-*.png.


// an action published to the registry: a string prop for an expression, an optional data store
const GREET_ACTION = `
export default {
  key: "greet_test", name: "Greet test", version: "0.1.0", type: "action",
  props: {
    greeting: { type: "string", label: "Greeting", default: "hello" },
    who: { type: "string", label: "Who" },
    store: { type: "data_store", label: "Store", optional: true },
  },
  async run() {
    if (this.store) await this.store.set("last", this.who);
    return \`\${this.greeting}, \${this.who}\`;
  },
};`;

const FIRST = `export default {
  async run({ steps }) {
    return { x: steps.trigger.event?.body?.x ?? "nobody" };
  },
};`;
const SECOND_BROKEN = `export default {
  async run({ steps }) {
    return foo(;
  },
};`;
const SECOND = `export default {
  async run({ steps }) {
    return steps.first.$return_value.x + "!";
  },
};`;
const SECOND_LOUD = SECOND.replace('.x + "!"', '.x.toUpperCase() + "!"');

/** A code editor's text (CodeMirror draws each line as a .cm-line; an empty one shows its placeholder). */
async function codeOf(editor: Locator): Promise<string> {
  if ((await editor.locator(".cm-placeholder").count()) > 0) return "";
  return (await editor.locator(".cm-line").allTextContents()).join("\n");
}

/** Replaces a code editor's text as a paste would (CodeMirror is no <textarea>: fill() is not for it). */
async function setCode(editor: Locator, code: string): Promise<void> {
  await editor.click();
  await editor.page().keyboard.press("ControlOrMeta+a");
  await editor.page().keyboard.insertText(code);
  await waitFor(async () => (await codeOf(editor)) === code, 5_000, "the editor to hold the code");
}

describe("dashboard: the workflow editor", { skip: browserSkip }, () => {
  let t: TestApp;
  let page: Page;
  let dash: Dashboard | undefined;
  let workflowId: string;
  let storeId: string;

  before(async () => {
    t = await startApp();
    const published = await t.request("POST", "/v1/components/registry", { body: { component_code: GREET_ACTION } });
    assert.equal(published.status, 200, published.text);
    const store = await t.request("POST", "/v1/data_stores", { body: { name: "greetings" } });
    assert.equal(store.status, 200, store.text);
    storeId = store.body.data.id;
    dash = await openDashboard(t);
    ({ page } = dash);
  });

  after(async () => {
    await dash?.close();
    await t?.close();
  });

  const shot = async (name: string) => {
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(SHOTS, `workflow-editor-${name}.png`), fullPage: true });
  };
  const go = (hash: string) => goTo(page, hash);
  const form = () => page.getByTestId("workflow-form");
  const step = (name: string) => form().locator(`[data-testid="step"][data-step-name="${name}"]`);
  const getWorkflow = async () => (await t.request("GET", `/v1/workflows/${workflowId}`)).body.data;
  const openEditor = async () => {
    await go(`#/workflows/${workflowId}/edit`);
    await form().getByLabel("Code of first").waitFor();
  };
  /** The newest run whose trigger event's body has x === `x`, once it has ended; with its steps. */
  const runWith = (x: string) =>
    waitFor(async () => {
      const runs = await t.request("GET", `/v1/workflows/${workflowId}/runs`);
      const run = runs.body.data.find((r: { trigger_event: { body?: { x?: string } } }) => r.trigger_event?.body?.x === x);
      if (!run || run.status === "running" || run.status === "suspended") return undefined;
      return (await t.request("GET", `/v1/runs/${run.id}`)).body.data;
    }, 20_000, `a run with x = ${x}`);

  it("a syntax error shows under its step, marked on its line", async () => {
    await go("#/workflows/new");
    await form().waitFor();
    await form().getByRole("textbox", { name: "Name", exact: true }).fill("Editor flow");
    await form().getByTestId("step").first().getByLabel("Step name").fill("first");
    await setCode(form().getByLabel("Code of first"), FIRST);
    await form().getByRole("button", { name: "Add a code step" }).click();
    await form().getByTestId("step").nth(1).getByLabel("Step name").fill("second");
    await setCode(form().getByLabel("Code of second"), SECOND_BROKEN);
    await form().getByRole("button", { name: "Create workflow" }).click();
    const editor = step("second").locator('[data-testid="step-code"][data-error-line="3"]');
    await editor.locator(".mantine-InputWrapper-error").getByText(/syntax error/).waitFor();
    // the mark is on line 3, from the column esbuild names
    const marked = editor.locator(".cm-line", { has: page.locator(".cm-lintRange-error") });
    assert.equal((await marked.textContent())?.trim(), "return foo(;");
    assert.equal(await step("first").locator(".cm-lintRange-error").count(), 0, "the other step is not marked");
    await form().getByTestId("error").waitFor();
    await shot("syntax-error");
  });

  it("creates a workflow with two code steps typed in the editors", async () => {
    await setCode(form().getByLabel("Code of second"), SECOND);
    // fixing the step clears its mark
    await waitFor(async () => (await step("second").locator(".cm-lintRange-error").count()) === 0, 5_000, "the mark to go");
    await form().getByRole("button", { name: "Create workflow" }).click();
    await page.getByRole("heading", { name: "Editor flow", exact: true }).waitFor();
    const list = await t.request("GET", "/v1/users/me/workflows");
    workflowId = list.body.data.find((w: { name: string }) => w.name === "Editor flow").id;
    const w = await getWorkflow();
    assert.deepEqual(
      w.steps.map((s: { name: string; code: string }) => [s.name, s.code]),
      [
        ["first", FIRST],
        ["second", SECOND],
      ],
    );
  });

  it("edits a saved workflow: its code is shown in the editors, and a change is saved", async () => {
    await openEditor();
    assert.equal(await codeOf(form().getByLabel("Code of first")), FIRST);
    assert.equal(await codeOf(form().getByLabel("Code of second")), SECOND);
    await setCode(form().getByLabel("Code of second"), SECOND_LOUD);
    await form().getByRole("button", { name: "Move second up" }).click();
    await form().getByRole("button", { name: "Move second down" }).click();
    await shot("edit");
    await form().getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Editor flow", exact: true }).waitFor();
    const w = await getWorkflow();
    assert.deepEqual(w.steps.map((s: { name: string }) => s.name), ["first", "second"]);
    assert.equal(w.steps[1].code, SECOND_LOUD);
  });

  it("adds an action step from the registry: its props form takes an expression and a data store; a run returns it", async () => {
    await openEditor();
    await form().getByRole("button", { name: "Add an action step" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an action step" });
    await dialog.getByTestId("registry-item").filter({ hasText: "Greet test" }).click();
    const greet = step("greet_test");
    await greet.waitFor();
    assert.equal(await greet.getByLabel("Greeting").inputValue(), "hello", "the prop's default");
    await greet.getByLabel("Who").fill("{{ steps.trigger.event.body.x }}");
    await greet.getByLabel("Store").selectOption(storeId);
    await greet.getByLabel("Step name").fill("greet");
    await step("greet").getByRole("button", { name: "Move greet up" }).click();
    await shot("action-step");
    await form().getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Editor flow", exact: true }).waitFor();
    const w = await getWorkflow();
    assert.deepEqual(w.steps.map((s: { name: string }) => s.name), ["first", "greet", "second"]);
    assert.equal(w.steps[1].key, "greet_test");
    assert.deepEqual(w.steps[1].props, { greeting: "hello", who: "{{ steps.trigger.event.body.x }}", store: { dataStoreId: storeId } });
    const res = await t.app.http.inject({ method: "POST", url: new URL(w.trigger.endpoint_url).pathname, payload: { x: "Ada" } });
    assert.equal(res.statusCode, 200);
    const run = await runWith("Ada");
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    assert.equal(run.steps[1].return_value, "hello, Ada");
    const records = await t.request("GET", `/v1/data_stores/${storeId}/records`);
    assert.deepEqual(
      records.body.data.map((r: { key: string; value: unknown }) => [r.key, r.value]),
      [["last", "Ada"]],
    );
    // editing again shows the action with its saved props
    await openEditor();
    assert.equal(await step("greet").getByLabel("Who").inputValue(), "{{ steps.trigger.event.body.x }}");
    assert.equal(await step("greet").getByLabel("Store").inputValue(), storeId);
  });

  it("saves the settings: retries, concurrency, rate and a custom HTTP response", async () => {
    await openEditor();
    const settings = form().getByTestId("workflow-settings");
    await settings.getByLabel("Retries").fill("2");
    await settings.getByLabel("Concurrency").fill("3");
    await settings.getByLabel("Rate: runs").fill("10");
    await settings.getByLabel("Rate: seconds").fill("60");
    await settings.getByRole("switch", { name: "Custom HTTP response" }).check();
    await shot("settings");
    await form().getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Editor flow", exact: true }).waitFor();
    let w = await getWorkflow();
    assert.deepEqual(w.settings, { retries: 2, concurrency: 3, rate: { limit: 10, per_seconds: 60 } });
    assert.equal(w.trigger.custom_response, true);
    // emptied fields are the defaults again
    await openEditor();
    assert.equal(await settings.getByLabel("Retries").inputValue(), "2");
    await settings.getByLabel("Concurrency").fill("");
    await settings.getByLabel("Rate: runs").fill("");
    await settings.getByLabel("Rate: seconds").fill("");
    await settings.getByRole("switch", { name: "Custom HTTP response" }).uncheck();
    await form().getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Editor flow", exact: true }).waitFor();
    w = await getWorkflow();
    assert.deepEqual(w.settings, { retries: 2, concurrency: null, rate: null });
    assert.equal(w.trigger.custom_response, false);
  });

  it("Run now sends the JSON body typed in its dialog; text that isn't JSON is refused", async () => {
    await go(`#/workflows/${workflowId}`);
    await page.getByRole("heading", { name: "Editor flow", exact: true }).waitFor();
    await page.getByRole("button", { name: "Run now" }).click();
    const dialog = page.getByRole("dialog", { name: "Run Editor flow now" });
    const body = dialog.getByLabel("Request body (JSON)");
    assert.equal(await body.inputValue(), "{}");
    await body.fill('{"x": "Grace",');
    await dialog.getByRole("button", { name: "Run", exact: true }).click();
    await dialog.getByText(/Not JSON/).waitFor();
    await shot("run-now-invalid");
    await body.fill('{"x": "Grace"}');
    await dialog.getByRole("button", { name: "Run", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    const run = await runWith("Grace");
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    assert.deepEqual(
      run.steps.map((s: { name: string; return_value: unknown }) => [s.name, s.return_value]),
      [
        ["first", { x: "Grace" }],
        ["greet", "hello, Grace"],
        ["second", "GRACE!"],
      ],
    );
  });

  it("fits a 420 px wide screen", async () => {
    await page.setViewportSize({ width: 420, height: 860 });
    try {
      await openEditor();
      await step("greet").getByLabel("Who").waitFor();
      await shot("narrow");
      // as a phone shows it: CodeMirror measures an editor's wrapped lines once it is on screen
      await step("second").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, "workflow-editor-narrow-step.png") });
      const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      // named in the failure: the innermost elements past the right edge
      const wide = await page.evaluate(`[...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && e.children.length === 0)
        .slice(0, 5).map((e) => e.tagName + "." + String(e.className).slice(0, 60) + " " + (e.textContent || "").slice(0, 30)).join(" | ")`);
      assert.ok(Number(overflow) <= 0, `the page scrolls sideways by ${String(overflow)} px: ${String(wide)}`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
