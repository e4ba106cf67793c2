import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, go as goTo, modalShown, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import { join } from "node:path";
import { type Page } from "playwright-core";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// The run page says how a run started (Run now answered nobody: no HTTP reply), "View code as it
// ran" shows the steps of the run's deployment read-only, and the runs list replays the runs
// selected, or every failed run of a time range (headless Chromium). Workflows are made and
// triggered through the API; screenshots at 1280 and 420 px under test-output/screenshots/.

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

describe("dashboard: how a run started, its code as it ran, bulk replay", { skip: browserSkip }, () => {
  let t: TestApp;
  let page: Page;
  let dash: Dashboard | undefined;

  before(async () => {
    t = await startApp();
    dash = await openDashboard(t);
    ({ page } = dash);
  });

  after(async () => {
    await dash?.close();
    await t?.close();
  });

  const go = (hash: string) => goTo(page, hash);
  const shot = (name: string, fullPage = true) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
  const pageWidth = () => page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
  /** runs `look` at 420 px wide (the side menu slid away), then goes back to 1280 */
  const atNarrow = async (look: () => Promise<void>) => {
    await page.setViewportSize({ width: 420, height: 860 });
    try {
      await page.waitForFunction(() => {
        const d = (globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { right: number } } | null } }).document;
        return (d.querySelector(".mantine-AppShell-navbar")?.getBoundingClientRect().right ?? 0) <= 0;
      });
      await look();
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  };
  const ended = (id: string) =>
    waitFor(async () => {
      const run = (await t.request("GET", `/v1/runs/${id}`)).body.data;
      return run && run.status !== "running" && run.status !== "suspended" ? run : undefined;
    }, 10_000, `run ${id} to end`);

  async function workflow(name: string, code: string): Promise<any> {
    const made = await t.request("POST", "/v1/workflows", { body: { name, trigger: { type: "http" }, steps: [{ name: "pay", code: step(code) }] } });
    assert.equal(made.status, 200, made.text);
    return made.body.data;
  }

  it("a run started by Run now says so and shows no HTTP reply; a request's run shows its reply", async () => {
    const w = await workflow("Greeter", "return 'hi ' + steps.trigger.event.body.name;");
    const now = await t.request("POST", `/v1/workflows/${w.id}/run`, { body: { http: { body: { name: "ada" } } } });
    assert.equal(now.status, 202, now.text);
    await ended(now.body.data.run_id);
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { name: "bob" } })).status, 200);
    const real = await waitFor(async () => (await t.request("GET", `/v1/workflows/${w.id}/runs`)).body.data.find((r: any) => r.started_by === "request" && r.status === "succeeded"), 10_000, "the request's run");

    await go(`#/runs/${now.body.data.run_id}`);
    await page.locator(`[data-testid="run-page"][data-run-id="${now.body.data.run_id}"]`).waitFor();
    await page.getByTestId("run-started-by").getByText("Run now").waitFor();
    assert.equal(await page.getByTestId("run-response").count(), 0, "no reply: no request was answered");
    await shot("started-by-run-now");
    await atNarrow(async () => {
      await shot("started-by-run-now-420");
      assert.ok((await pageWidth()) <= 420, "the run page fits 420 px");
    });

    await go(`#/runs/${real.id}`);
    await page.locator(`[data-testid="run-page"][data-run-id="${real.id}"]`).waitFor();
    await page.getByTestId("run-started-by").getByText("HTTP request").waitFor();
    await page.getByTestId("run-response").getByText("HTTP 200").waitFor();

    // the dashboard's Run now: its toast opens the run it started, which says so
    await go(`#/workflows/${w.id}`);
    await page.getByRole("heading", { name: "Greeter", exact: true }).waitFor();
    await page.getByRole("button", { name: "Run now" }).click();
    const dialog = page.getByRole("dialog", { name: "Run Greeter now" });
    await dialog.getByLabel("Request body (JSON)").fill('{"name": "cy"}');
    await dialog.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByTestId("run-now-open").click();
    const opened = page.locator('[data-testid="run-page"]');
    await opened.waitFor();
    const openedId = await opened.getAttribute("data-run-id");
    assert.ok(openedId && openedId !== now.body.data.run_id && openedId !== real.id, `a new run: ${openedId}`);
    await page.getByTestId("run-started-by").getByText("Run now").waitFor();
    const run = await ended(openedId);
    assert.equal(run.steps[0].return_value, "hi cy");
  });

  it("View code as it ran: the run's deployment read-only, saying it is no longer the current one", async () => {
    const w = await workflow("Versioned", "return 'first version';");
    const first = await t.request("POST", `/v1/workflows/${w.id}/run`, { body: { event: {} } });
    await ended(first.body.data.run_id);
    const put = await t.request("PUT", `/v1/workflows/${w.id}`, { body: { name: "Versioned", trigger: { type: "http" }, steps: [{ name: "pay", code: step("return 'second version';") }] } });
    assert.equal(put.status, 200, put.text);

    await go(`#/runs/${first.body.data.run_id}`);
    await page.getByTestId("run-deployment").getByText("(an earlier deployment)").waitFor();
    await page.getByTestId("view-code").click();
    await modalShown(page);
    const code = page.getByTestId("deployment-code");
    await code.waitFor();
    assert.equal(await code.getAttribute("data-current"), "false");
    await page.getByTestId("deployment-current").getByText(/An earlier deployment, made .*: the workflow has changed since/).waitFor();
    const editor = code.locator('[data-testid="deployed-step"][data-step="pay"] .cm-content');
    await editor.getByText("first version").waitFor();
    assert.equal(await editor.getAttribute("aria-readonly"), "true");
    assert.equal(await editor.getAttribute("aria-label"), "Code of pay as it ran");
    // typing changes nothing
    await editor.click();
    await page.keyboard.type("xyz");
    assert.ok(!(await editor.innerText()).includes("xyz"), "read-only");
    await shot("code-as-it-ran", false);
    await atNarrow(async () => {
      await shot("code-as-it-ran-420", false);
      const box = await code.boundingBox();
      assert.ok(box && box.width <= 420, `the dialog fits: ${box?.width}`);
    });
    await page.keyboard.press("Escape");
    await code.waitFor({ state: "detached" });

    // a run of the current deployment says it is current
    const second = await t.request("POST", `/v1/workflows/${w.id}/run`, { body: { event: {} } });
    await ended(second.body.data.run_id);
    await go(`#/runs/${second.body.data.run_id}`);
    await page.getByTestId("run-deployment").getByText("(current)").waitFor();
    await page.getByTestId("view-code").click();
    await page.locator('[data-testid="deployment-code"][data-current="true"]').getByText("second version").waitFor();
    await page.getByTestId("deployment-current").getByText("current deployment").waitFor();
    await page.keyboard.press("Escape");
  });

  it("the runs list replays the runs selected, and every failed run of a time range, saying how many", async () => {
    const w = await workflow("Payments", "if (steps.trigger.event.fail) throw new Error('gateway down'); return 'paid';");
    const run = async (event: unknown) => (await t.request("POST", `/v1/workflows/${w.id}/run`, { body: { event } })).body.data.run_id as string;
    const failedIds: string[] = [];
    for (let i = 0; i < 3; i++) failedIds.push(await run({ fail: true, i }));
    const okId = await run({ i: 9 });
    for (const id of [...failedIds, okId]) await ended(id);
    // the fix: the gateway is back
    const put = await t.request("PUT", `/v1/workflows/${w.id}`, { body: { name: "Payments", trigger: { type: "http" }, steps: [{ name: "pay", code: step("return 'paid';") }] } });
    assert.equal(put.status, 200, put.text);

    await go(`#/workflows/${w.id}`);
    const table = page.getByTestId("runs-table");
    await waitFor(async () => (await table.getByTestId("run-row").count()) === 4, 10_000, "4 runs listed");
    assert.equal(await page.getByTestId("replay-selected").isDisabled(), true, "nothing selected yet");
    const row = (id: string) => table.locator(`[data-testid="run-row"][data-run-id="${id}"]`);
    await row(failedIds[0]).getByTestId("run-select").click();
    await row(failedIds[1]).getByTestId("run-select").click();
    assert.match(page.url(), new RegExp(`#/workflows/${w.id}$`), "ticking a run doesn't open it");
    await page.getByTestId("replay-selected").getByText("Replay selected (2)").waitFor();
    await shot("bulk-selected");
    await atNarrow(async () => {
      await shot("bulk-selected-420");
      assert.ok((await pageWidth()) <= 420, "the runs list fits 420 px");
    });

    await page.getByTestId("replay-selected").click();
    await page.getByTestId("bulk-result").getByText("Started 2 replays of the selected runs").waitFor();
    assert.equal(await page.getByTestId("bulk-result").getAttribute("data-tone"), "green");
    const replays = await waitFor(async () => {
      const list = (await t.request("GET", `/v1/workflows/${w.id}/runs`)).body.data as any[];
      const made = list.filter((r) => r.replay_of !== null);
      return made.length === 2 && made.every((r) => r.status === "succeeded") ? made : undefined;
    }, 15_000, "2 replays to succeed");
    assert.deepEqual(replays.map((r) => r.replay_of).sort(), failedIds.slice(0, 2).sort());
    for (const r of replays) assert.equal(r.deployment_id, put.body.data.deployment_id, "on the current code");
    assert.equal(await page.getByTestId("replay-selected").isDisabled(), true, "the selection is cleared");

    // every failed run of the last hour: the 3 that failed, not the one that succeeded
    await page.getByTestId("replay-failed").click();
    await modalShown(page);
    await page.getByTestId("replay-failed-form").getByText("Last hour").click();
    await page.getByTestId("replay-failed-form").getByText("in the last hour").waitFor();
    await shot("bulk-failed-dialog", false);
    await atNarrow(async () => void (await shot("bulk-failed-dialog-420", false)));
    await page.getByTestId("replay-failed-confirm").click();
    await page.getByTestId("bulk-result").getByText("Matched 3 failed runs in the last hour; started 3 replays.").waitFor();
    await page.getByTestId("replay-failed-form").waitFor({ state: "detached" });
    await waitFor(async () => {
      const list = (await t.request("GET", `/v1/workflows/${w.id}/runs?limit=20`)).body.data as any[];
      return list.filter((r) => r.replay_of !== null && r.status === "succeeded").length === 5;
    }, 15_000, "3 more replays to succeed");
    await shot("bulk-result");

    // another user's runs can't be replayed from here: the API says so, and so does the page
    const other = await t.newUser();
    const theirs = await t.request("POST", "/v1/workflows", { key: other.key, body: { name: "Theirs", trigger: { type: "none" }, steps: [{ name: "s", code: step("return 1;") }] } });
    const refused = await t.request("POST", `/v1/workflows/${theirs.body.data.id}/runs/replay`, { body: { status: "failed" } });
    assert.equal(refused.status, 404);
  });
});
