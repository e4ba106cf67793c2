import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, go as goTo, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import { join } from "node:path";
import { type Page } from "playwright-core";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// Fixing a failed run where it shows (headless Chromium): the runs list names the failed step and
// its error, the run page says its request was answered at acceptance (not a green 200) and which
// deployment it ran; the code is fixed through the API, and "Retry from this step" on the failed
// step starts a retry that succeeds, linked both ways with the run it retries.

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

describe("dashboard: fix a failed run", { skip: browserSkip }, () => {
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

  const shot = async (name: string) => {
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const go = (hash: string) => goTo(page, hash);
  /** narrows the window and waits for the layout to follow (the side menu slides away) */
  const narrow = async () => {
    await page.setViewportSize({ width: 420, height: 860 });
    await page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number }; querySelector(s: string): { getBoundingClientRect(): { left: number } } | null } }).document;
      const menu = d.querySelector(".mantine-AppShell-navbar") as { getBoundingClientRect(): { right: number } } | null;
      return d.documentElement.scrollWidth <= 420 && (menu?.getBoundingClientRect().right ?? 0) <= 0;
    });
  };

  it("failure → runs list → run page → fix the code → Retry from this step → the retry succeeded", async () => {
    const steps = (charge: string) => [
      { name: "fetch", code: step("return { amount: steps.trigger.event.body.amount };") },
      { name: "charge", code: step(charge) },
    ];
    const made = await t.request("POST", "/v1/workflows", {
      body: { name: "Charger", trigger: { type: "http" }, steps: steps(`throw new Error("card declined\\nsecond line");`) },
    });
    assert.equal(made.status, 200, made.text);
    const w = made.body.data;
    const reply = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { amount: 12 } });
    assert.equal(reply.status, 200, "answered at acceptance");
    const failed = await waitFor(async () => {
      const list = await t.request("GET", `/v1/workflows/${w.id}/runs?status=failed`);
      return list.body.data[0];
    }, 10_000, "a failed run");

    await go(`#/workflows/${w.id}`);
    const row = page.locator(`[data-testid="run-row"][data-run-id="${failed.id}"]`);
    // one line for wide screens, one for narrow: the one shown
    const failedAt = row.locator('[data-testid="run-failed-at"]:visible');
    await failedAt.filter({ hasText: "step charge: Error: card declined" }).waitFor();
    assert.ok(!(await failedAt.innerText()).includes("second line"), "only the error's first line");
    assert.match(await row.getByTestId("run-started").innerText(), /just now|s ago/);
    // the $errors banner opens the run that failed
    await page.getByTestId("failure-alert").getByTestId("failure-run-link").waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId("failure-run-link").getAttribute("href"), `#/runs/${failed.id}`);
    await shot("fix-runs-list");

    await row.getByTestId("run-started").click();
    await page.locator(`[data-testid="run-page"][data-run-id="${failed.id}"]`).waitFor();
    const response = page.getByTestId("run-response");
    await response.getByText("answered 200 at acceptance; the run then failed").waitFor();
    await page.getByTestId("run-deployment").getByText("(current)").waitFor();
    assert.match(await page.getByTestId("run-deployment").innerText(), new RegExp(w.deployment_id));

    // the fix, saved through the API: the run now ran an earlier deployment
    const put = await t.request("PUT", `/v1/workflows/${w.id}`, { body: { name: "Charger", trigger: { type: "http" }, steps: steps(`return "charged " + steps.fetch.$return_value.amount;`) } });
    assert.equal(put.status, 200, put.text);
    await page.reload();
    await page.getByTestId("run-deployment").getByText("(an earlier deployment)").waitFor();
    const failedStep = page.locator('[data-testid="step"][data-step-name="charge"]');
    await failedStep.getByTestId("fix-failed-step").getByText("with the current code").first().waitFor();
    assert.equal(await page.getByTestId("fix-failed-step").count(), 1, "only on the failed step");
    await shot("fix-run-page-failed");
    await narrow();
    try {
      await shot("fix-run-page-failed-420");
      const wide = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
      assert.ok(wide <= 420, `the run page is ${wide} px wide`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }

    // Edit step: the editor, at that step, testing against this run; Test runs the draft (the fix)
    await failedStep.getByTestId("edit-step").click();
    await page.waitForURL((u) => u.hash === `#/workflows/${w.id}/edit/charge/${failed.id}`);
    const editing = page.locator('[data-testid="step"][data-step-name="charge"]');
    await editing.getByRole("button", { name: "Test charge" }).click();
    const result = editing.getByTestId("step-test-result");
    await result.getByText('"charged 12"').waitFor();
    assert.equal(await result.getAttribute("data-outcome"), "succeeded");
    assert.ok(await editing.evaluate((e) => e.getBoundingClientRect().top < 860), "the step is in view");
    await page.screenshot({ path: join(SHOTS, "fix-editor-test.png") });
    await narrow();
    try {
      await editing.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, "fix-editor-test-420.png") });
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
    const listed = await t.request("GET", `/v1/workflows/${w.id}/runs`);
    assert.equal(listed.body.data.length, 1, "a test records no run");
    await page.goBack();
    await page.locator(`[data-testid="run-page"][data-run-id="${failed.id}"]`).waitFor();

    await failedStep.getByRole("button", { name: "Retry from this step" }).click();
    await page.waitForURL((u) => /#\/runs\/r_/.test(u.hash) && !u.hash.endsWith(failed.id));
    const retried = page.locator('[data-testid="run-page"][data-status="succeeded"]');
    await retried.waitFor({ timeout: 15_000 });
    const retryId = await retried.getAttribute("data-run-id");
    await page.getByTestId("retry-of").getByText(failed.id).waitFor();
    assert.match(await page.getByTestId("retry-of").innerText(), /retry of/);
    await page.locator('[data-testid="step"][data-step-name="charge"]').getByText('"charged 12"').waitFor();
    assert.equal(await page.getByTestId("run-response").count(), 0, "a retry had no HTTP request: no reply shown");
    await shot("fix-run-page-retried");

    // the failed run links to its retry, and the list marks the retry
    await go(`#/runs/${failed.id}`);
    await page.getByTestId("retried-as").getByText(retryId!).waitFor();
    await go(`#/workflows/${w.id}`);
    await page.locator(`[data-testid="run-row"][data-run-id="${retryId}"]`).getByTestId("run-lineage").getByText(failed.id).waitFor();
    // fixed: the banner has said what it had to
    await page.getByTestId("failure-alert").waitFor({ state: "detached" });
    await shot("fix-runs-list-retried");
    await narrow();
    try {
      await shot("fix-runs-list-420");
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("the error badge opens the failed run; a dismissed banner stays away until a newer error", async () => {
    const made = await t.request("POST", "/v1/workflows", {
      body: { name: "Breaker", trigger: { type: "none" }, steps: [{ name: "boom", code: step(`throw new Error("boom");`) }] },
    });
    assert.equal(made.status, 200, made.text);
    const w = made.body.data;
    const fail = async (n: number) => {
      await t.request("POST", `/v1/workflows/${w.id}/run`, { body: { event: {} } });
      return waitFor(async () => {
        const list = await t.request("GET", `/v1/workflows/${w.id}/runs?status=failed`);
        const errors = await t.request("GET", `/v1/users/me/error_summaries?ids=${w.id}`);
        return list.body.data.length === n && errors.body.data[0]?.count === n ? list.body.data[0] : undefined;
      }, 10_000, `${n} failed runs on $errors`);
    };
    const first = await fail(1);
    await go("#/workflows");
    const badge = page.locator(`a[data-testid="failure-badge"][href="#/runs/${first.id}"]`);
    await badge.waitFor();
    await badge.click();
    await page.locator(`[data-testid="run-page"][data-run-id="${first.id}"]`).waitFor();
    // a run without an HTTP request shows no reply
    assert.equal(await page.getByTestId("run-response").count(), 0);

    await go(`#/workflows/${w.id}`);
    const alert = page.getByTestId("failure-alert");
    await alert.getByTestId("failure-run-link").waitFor();
    await alert.getByRole("button", { name: "Dismiss" }).click();
    await alert.waitFor({ state: "detached" });
    await page.reload();
    await page.getByRole("heading", { name: "Breaker" }).waitFor();
    await page.getByTestId("workflow-runs").getByTestId("run-row").first().waitFor();
    assert.equal(await alert.count(), 0, "still dismissed after a reload");
    const second = await fail(2);
    await alert.getByTestId("failure-run-link").and(page.locator(`[href="#/runs/${second.id}"]`)).waitFor({ timeout: 15_000 });
  });
});
