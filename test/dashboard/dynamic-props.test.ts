import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { browserSkip, go, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// The deploy form's dynamic props in headless Chromium (docs/writing-components.md, "Dynamic props"): a prop's options loaded
// from its options() when the list opens, searched on the server, "Load more" (the open list's
// last entry) while a context comes back, and new fields when a reloadProps prop changes. The source made is checked through
// the API. Screenshots under test-output/screenshots/dynamic-props-*.png.

const FRUITS = ["apple", "apricot", "avocado", "banana", "blackberry", "blueberry", "cherry", "date", "fig", "grape", "kiwi", "lemon"];

const COMPONENT = `
const FRUITS = ${JSON.stringify(FRUITS)};
export default {
  key: "dyn_browser",
  name: "Dynamic browser",
  version: "0.1.0",
  props: {
    fruit: {
      type: "string",
      label: "Fruit",
      useQuery: true,
      async options({ query, prevContext }) {
        const hits = FRUITS.filter((f) => f.includes(query ?? ""));
        const at = prevContext.at ?? 0;
        const options = hits.slice(at, at + 5);
        return at + 5 < hits.length ? { options, context: { at: at + 5 } } : { options };
      },
    },
    mode: { type: "string", label: "Mode", reloadProps: true, options: ["simple", "advanced"], default: "simple" },
  },
  async additionalProps() {
    return this.mode === "advanced" ? { depth: { type: "integer", label: "Depth", min: 1 } } : {};
  },
  async run() {},
};`;

describe("dashboard: dynamic props", { skip: browserSkip }, () => {
  let t: TestApp;
  let d: Dashboard;
  const shot = (name: string) => d.page.screenshot({ path: join(SHOTS, `dynamic-props-${name}.png`), fullPage: true });

  before(async () => {
    t = await startApp();
    const saved = await t.request("POST", "/v1/components/registry", { body: { component_code: COMPONENT } });
    assert.equal(saved.status, 200, saved.text);
    d = await openDashboard(t);
  });
  after(async () => {
    await d?.close();
    await t.close();
  });

  it("lists, searches and pages a prop's options, and shows the fields a reloadProps prop adds", async () => {
    const page = d.page;
    await go(page, "#/deploy/dyn_browser");
    const form = page.getByTestId("deploy-form");
    await form.waitFor();
    const fruit = form.getByLabel("Fruit");
    // the open list's options (the Mode select's own <option>s are not in a listbox), and its "Load more" entry
    const listbox = page.getByRole("listbox");
    const options = listbox.locator('[role="option"]:not([data-load-more])');
    const loadMore = listbox.locator("[data-load-more]");

    await fruit.click();
    await options.filter({ hasText: /^apple$/ }).waitFor();
    assert.deepEqual(await options.allTextContents(), FRUITS.slice(0, 5));
    assert.match(await loadMore.innerText(), /Load more\s+\(5 loaded\)/);
    await shot("listed");

    // "Load more" is the list's last entry: clicked while the list is open, which stays open
    await loadMore.click();
    await waitFor(async () => (await options.count()) === 10, 10_000, "the second page");
    assert.deepEqual(await options.allTextContents(), FRUITS.slice(0, 10));
    assert.ok(await listbox.isVisible(), "the list stayed open");
    await loadMore.getByText("(10 loaded)").waitFor();
    await shot("more");
    // by keyboard too: the last page, and no "Load more" after it
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await waitFor(async () => (await options.count()) === FRUITS.length, 10_000, "the last page");
    assert.equal(await loadMore.count(), 0);
    await page.keyboard.press("Escape");

    await fruit.click();
    await fruit.fill("blue");
    await waitFor(async () => JSON.stringify(await options.allTextContents()) === '["blueberry"]', 10_000, "the server's search");
    await shot("searched");
    await options.filter({ hasText: "blueberry" }).click();
    assert.equal(await fruit.inputValue(), "blueberry");

    // no Depth until the mode asks for it
    assert.equal(await form.getByLabel("Depth").count(), 0);
    await form.getByLabel("Mode").selectOption("advanced");
    await form.getByLabel("Depth").waitFor();
    await form.getByLabel("Depth").fill("3");
    await shot("reloaded");
    await form.getByRole("button", { name: "Deploy source" }).click();
    await page.getByRole("heading", { name: "dynamic-browser" }).waitFor();

    const list = await t.request("GET", "/v1/users/me/sources/");
    const made = list.body.data.find((s: { name: string }) => s.name === "dynamic-browser");
    assert.ok(made, list.text);
    assert.equal(made.configured_props.fruit, "blueberry");
    assert.equal(made.configured_props.mode, "advanced");
  });
});
