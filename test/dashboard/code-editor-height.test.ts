import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, go, openDashboard, type Dashboard } from "../browser.ts";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// A step of 12,000 lines: its code editor keeps a bounded height and scrolls inside, so the page
// doesn't grow with the code (the form's buttons stay within reach).

const LINES = 12_000;
const BIG = `export default { async run() {\n${Array.from({ length: LINES }, (_, i) => `  const v${i} = ${i};`).join("\n")}\n} };`;

describe("dashboard: a long step's code editor", { skip: browserSkip }, () => {
  let t: TestApp;
  let dash: Dashboard | undefined;

  before(async () => {
    t = await startApp();
    dash = await openDashboard(t);
  });
  after(async () => {
    await dash?.close();
    await t?.close();
  });

  it("has a maximum height and its own scroll", async () => {
    const made = await t.request("POST", "/v1/workflows", { body: { name: "long", steps: [{ name: "big", code: BIG }] } });
    assert.equal(made.status, 200, made.text);
    const page = dash!.page;
    await go(page, `#/workflows/${made.body.data.id}/edit`);
    const editor = page.getByTestId("workflow-form").getByLabel("Code of big");
    await editor.waitFor();
    const box = page.locator('[data-testid="step"][data-step-name="big"] .cm-editor');
    const sizes = await waitFor(async () => {
      const s = await box.evaluate((el) => {
        const scroller = el.querySelector(".cm-scroller")!;
        return { height: el.getBoundingClientRect().height, scrollHeight: scroller.scrollHeight, clientHeight: scroller.clientHeight, page: el.ownerDocument.documentElement.scrollHeight };
      });
      return s.scrollHeight > s.clientHeight ? s : undefined;
    }, 10_000, "the editor to scroll inside");
    assert.ok(sizes.height <= 600, `the editor is ${sizes.height} px high`);
    assert.ok(sizes.page < 3_000, `the page is ${sizes.page} px high`);
  });
});
