import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, closedPort, go as goTo, modalShown as modalFadedIn, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import { join } from "node:path";
import { type Page } from "playwright-core";
import { createSource, endpointPath, startApp, waitFor, type TestApp } from "../helpers.ts";

// The dashboard's run inspector in headless Chromium (as test/dashboard/dashboard.test.ts): a workflow's
// runs listed live, a run's steps with their values, logs and errors, Replay, Cancel and Resume,
// and a source's invocations with their errors and log lines. Workflows and sources are made and
// triggered through the API; the browser only looks and clicks. Screenshots go under
// test-output/screenshots/ (desktop, and 420 px wide).


const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

const FLAKY_SOURCE = `
export default {
  name: "Kettle parser",
  version: "0.1.0",
  props: { http: "$.interface.http" },
  run(event) {
    console.log("got " + event.body.what);
    if (event.body.ok) return;
    console.warn("about to fail");
    throw new RangeError("cannot handle " + event.body.what);
  },
};
`;

describe("dashboard: runs and invocations", { skip: browserSkip }, () => {
  let t: TestApp;
  let page: Page;
  let dash: Dashboard | undefined;
  let orders: any;
  let approval: any;
  let deadPort: number;

  before(async () => {
    deadPort = await closedPort();
    // a send to the dead port is tried five times, 600 ms apart, then given up
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${deadPort}`, TRIBUTARY_WEBHOOK_BACKOFF_MS: "600,600,600,600" });
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
  const modalShown = () => modalFadedIn(page);
  /** no badge on the page has its text cut off */
  const badgesWhole = async () => {
    const clipped = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ scrollWidth: number; clientWidth: number; textContent: string | null }> } }).document;
      return Array.from(d.querySelectorAll(".mantine-Badge-root, .mantine-Badge-label"))
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.textContent);
    });
    assert.deepEqual(clipped, [], "badges whose text is clipped");
  };

  const workflow = async (name: string, steps: unknown[]) => {
    const res = await t.request("POST", "/v1/workflows", { body: { name, steps, trigger: { type: "http" } } });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const trigger = async (w: any, body: unknown) => {
    const res = await t.app.http.inject({ method: "POST", url: new URL(w.trigger.endpoint_url).pathname, payload: body as object });
    assert.equal(res.statusCode, 200, res.body);
  };
  const runsOf = async (w: any, status?: string) => (await t.request("GET", `/v1/workflows/${w.id}/runs${status ? `?status=${status}` : ""}`)).body.data as any[];
  const runWith = (w: any, status: string, not: string[] = []) =>
    waitFor(async () => (await runsOf(w, status)).find((r) => !not.includes(r.id)), 15_000, `a ${status} run of ${w.name}`);

  it("an empty runs list says how to start a run; its Run now starts one", async () => {
    const ticker = await workflow("Ticker", [{ name: "tick", code: step(`$.summary = "ticked"; return "tick";`) }]);
    await go(`#/workflows/${ticker.id}`);
    await page.getByRole("heading", { name: "Ticker" }).waitFor();
    const empty = page.getByTestId("workflow-runs").getByTestId("empty-state");
    await empty.getByText("No runs yet").waitFor();
    await empty.getByText(new RegExp(`POST /v1/workflows/${ticker.id}/run`)).waitFor();
    await shot("runs-empty");
    await empty.getByText("Run now", { exact: true }).click();
    await page.getByTestId("runs-table").locator('[data-testid="run-row"][data-status="succeeded"]').getByText("ticked", { exact: true }).waitFor();
    assert.equal((await runsOf(ticker)).length, 1);
  });

  it("lists a succeeded run, then a failed one started after the page opened, without a reload", async () => {
    orders = await workflow("Orders", [
      { name: "check", code: step(`const b = steps.trigger.event.body; console.log("checking order " + b.n); if (b.fail) throw new TypeError("order " + b.n + " is not valid"); $.export("half", b.n / 2); return { n: b.n, items: ["tea", "scones"] };`) },
      { name: "double", code: step(`console.warn("doubling", steps.check.$return_value.n); $.summary = "doubled " + steps.check.$return_value.n; return steps.check.$return_value.n * 2;`) },
    ]);
    await go(`#/workflows/${orders.id}`);
    await page.getByRole("heading", { name: "Orders" }).waitFor();
    await page.getByTestId("workflow-runs").getByText("No runs yet").waitFor();
    await page.evaluate("window.__sameDocument = true");
    await trigger(orders, { n: 21 });
    const list = page.getByTestId("runs-table");
    const succeeded = list.locator('[data-testid="run-row"][data-status="succeeded"]');
    await succeeded.waitFor();
    await succeeded.getByText("doubled 21", { exact: true }).waitFor();
    assert.match(await succeeded.getByTestId("run-trigger").innerText(), /^POST \//);
    await trigger(orders, { n: 7, fail: true });
    const failed = list.locator('[data-testid="run-row"][data-status="failed"]');
    await failed.waitFor();
    assert.equal(await page.evaluate("window.__sameDocument"), true, "the page was not reloaded");
    // newest first
    const statuses = await list.getByTestId("run-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status")));
    assert.deepEqual(statuses, ["failed", "succeeded"]);
    await shot("runs-list");
    // the status filter asks the API for that status only
    await page.getByTestId("status-filter").click();
    await page.getByRole("option", { name: "failed" }).click();
    await waitFor(async () => (await list.getByTestId("run-row").count()) === 1, 10_000, "only the failed run");
    await list.locator('[data-testid="run-row"][data-status="failed"]').waitFor();
    await page.getByTestId("status-filter").click();
    await page.getByRole("option", { name: "All statuses" }).click();
    await waitFor(async () => (await list.getByTestId("run-row").count()) === 2, 10_000, "both runs again");
  });

  it("a run's page shows each step's return value and logs", async () => {
    await page.getByTestId("runs-table").locator('[data-testid="run-row"][data-status="succeeded"]').getByText("doubled 21", { exact: true }).click();
    const run = page.locator('[data-testid="run-page"][data-status="succeeded"]');
    await run.waitFor();
    assert.match(page.url(), /#\/runs\/r_/);
    await run.getByTestId("run-summary").getByText("doubled 21").waitFor();
    await run.getByTestId("workflow-link").getByText("Orders").waitFor();
    await run.getByTestId("run-response").getByText("HTTP 200").waitFor();
    const check = run.locator('[data-testid="step"][data-step-name="check"]');
    await check.getByTestId("step-return").getByText('"scones"').waitFor();
    await check.getByTestId("step-exports").getByText("10.5").waitFor();
    await check.getByTestId("step-logs").getByText("checking order 21").waitFor();
    const double = run.locator('[data-testid="step"][data-step-name="double"]');
    await double.getByTestId("step-return").getByText("42", { exact: true }).waitFor();
    await double.locator('[data-testid="log-line"][data-level="warn"]').getByText("doubling 21").waitFor();
    // the trigger event opens to the request
    await run.getByTestId("trigger-event").getByRole("button", { name: /Trigger event/ }).click();
    await run.getByTestId("trigger-event").getByText('"method"').waitFor();
    await run.getByTestId("trigger-event").getByText('"POST"').waitFor();
    await shot("run-succeeded");
  });

  it("a failed run shows the step's error with its stack, and the steps it never ran", async () => {
    const [failedRun] = await runsOf(orders, "failed");
    await go(`#/runs/${failedRun.id}`);
    const run = page.locator(`[data-testid="run-page"][data-run-id="${failedRun.id}"][data-status="failed"]`);
    await run.waitFor();
    const check = run.locator('[data-testid="step"][data-step-name="check"][data-status="failed"]');
    await check.getByTestId("error-block").getByText("TypeError: order 7 is not valid", { exact: true }).waitFor();
    assert.match(await check.getByTestId("error-stack").innerText(), /TypeError: order 7 is not valid\s+at /);
    await check.getByTestId("step-logs").getByText("checking order 7").waitFor();
    await run.locator('[data-testid="step"][data-step-name="double"][data-status="skipped"]').waitFor();
    await shot("run-failed");
  });

  it("a value too big to send whole shows its start, and Show all fetches it", async () => {
    const big = await workflow("Big values", [{ name: "count", code: step(`return { numbers: Array.from({ length: 1500 }, (_, i) => i) };`) }]);
    await trigger(big, { note: "y".repeat(1500) + "the end" });
    const [listed] = await waitFor(async () => {
      const list = await runsOf(big);
      return list[0]?.status === "succeeded" ? list : undefined;
    }, 15_000, "the big run");
    // the trigger event comes truncated, and its request line is still read from it
    await go(`#/workflows/${big.id}`);
    assert.equal(await page.getByTestId("run-row").getByTestId("run-trigger").innerText(), "POST /");
    await go(`#/runs/${listed.id}`);
    const run = page.locator(`[data-testid="run-page"][data-run-id="${listed.id}"]`);
    const value = run.locator('[data-testid="step"][data-step-name="count"]').getByTestId("step-return");
    await value.getByRole("button", { name: "Return value" }).click();
    await value.getByTestId("truncated").getByText(/bytes of JSON/).waitFor();
    await shot("run-truncated");
    await value.getByRole("button", { name: "Show all" }).click();
    await value.getByText("1499", { exact: true }).waitFor();
    assert.equal(await value.getByTestId("truncated").count(), 0);
    const event = run.getByTestId("trigger-event");
    await event.getByRole("button", { name: /Trigger event/ }).click();
    await event.getByRole("button", { name: "Show all" }).click();
    await event.getByText(/the end"$/).waitFor();
    await shot("run-show-all");
  });

  it("a step's queued send shows its tries, refreshed until it is given up", async () => {
    const hook = await workflow("Notifier", [
      { name: "notify", code: step(`$.send.http({ method: "POST", url: "http://127.0.0.1:${deadPort}/hook", data: { ok: true } }); return "queued";`) },
    ]);
    await trigger(hook, {});
    const listed = await runWith(hook, "succeeded");
    await go(`#/runs/${listed.id}`);
    const send = page.locator(`[data-testid="run-page"][data-run-id="${listed.id}"]`).getByTestId("step-sends").getByTestId("send");
    await send.getByText(`POST http://127.0.0.1:${deadPort}/hook`).waitFor();
    // the run has ended, but the page keeps reading it while a send is pending
    await page.locator('[data-testid="send"][data-status="failed"]').waitFor({ timeout: 20_000 });
    await send.getByText(/5 attempts/).waitFor();
    await send.getByText(/gave up/).waitFor();
    const got = await t.request("GET", `/v1/runs/${listed.id}`);
    const [sent] = got.body.data.steps[0].sends;
    assert.equal(sent.status, "failed");
    await send.getByText(sent.last_error).waitFor();
    await shot("run-sends");
  });

  it("Replay starts a new run of the same event and opens it", async () => {
    const [failedRun] = await runsOf(orders, "failed");
    await go(`#/runs/${failedRun.id}`);
    await page.locator(`[data-testid="run-page"][data-run-id="${failedRun.id}"]`).waitFor();
    await page.getByRole("button", { name: "Replay" }).click();
    const replay = page.locator(`[data-testid="run-page"]:not([data-run-id="${failedRun.id}"])`);
    await replay.waitFor();
    const newId = await replay.getAttribute("data-run-id");
    assert.match(String(newId), /^r_/);
    assert.ok(page.url().endsWith(`#/runs/${newId}`), page.url());
    await replay.getByTestId("replay-of").getByRole("link", { name: failedRun.id }).waitFor();
    await page.locator(`[data-testid="run-page"][data-run-id="${newId}"][data-status="failed"]`).waitFor();
    const got = await t.request("GET", `/v1/runs/${newId}`);
    assert.equal(got.body.data.replay_of, failedRun.id);
  });

  it("Cancel ends a suspended run", async () => {
    approval = await workflow("Approval", [
      { name: "ask", code: step(`$.flow.suspend(600_000); return "asked";`) },
      { name: "decide", code: step(`console.log("decided", JSON.stringify(steps.ask.$resume_data.body)); return steps.ask.$resume_data.body;`) },
    ]);
    await trigger(approval, { who: "ada" });
    const suspended = await runWith(approval, "suspended");
    await go(`#/runs/${suspended.id}`);
    const run = page.locator(`[data-testid="run-page"][data-run-id="${suspended.id}"][data-status="suspended"]`);
    await run.waitFor();
    await run.locator('[data-testid="waiting"][data-for="suspend"]').waitFor();
    await run.locator('[data-testid="step"][data-step-name="ask"][data-status="suspended"]').waitFor();
    await shot("run-suspended");
    await page.getByRole("button", { name: "Cancel run" }).click();
    await modalShown();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel run" }).click();
    await page.locator(`[data-testid="run-page"][data-run-id="${suspended.id}"][data-status="cancelled"]`).waitFor();
    const got = await t.request("GET", `/v1/runs/${suspended.id}`);
    assert.equal(got.body.data.status, "cancelled");
    assert.equal(await page.getByRole("button", { name: "Cancel run" }).count(), 0);
  });

  it("Resume, with JSON, completes a suspended run", async () => {
    const [cancelled] = await runsOf(approval, "cancelled");
    await trigger(approval, { who: "grace" });
    const suspended = await runWith(approval, "suspended", [cancelled.id]);
    await go(`#/runs/${suspended.id}`);
    await page.locator(`[data-testid="run-page"][data-run-id="${suspended.id}"][data-status="suspended"]`).waitFor();
    await page.getByRole("button", { name: "Resume", exact: true }).click();
    const form = page.getByTestId("resume-form");
    await form.getByLabel("Resume data (JSON, optional)").fill("{nope");
    await form.getByRole("button", { name: "Resume run" }).click();
    await form.getByText(/not JSON/).waitFor();
    await form.getByLabel("Resume data (JSON, optional)").fill('{"approved": true}');
    await shot("run-resume");
    await form.getByRole("button", { name: "Resume run" }).click();
    const run = page.locator(`[data-testid="run-page"][data-run-id="${suspended.id}"][data-status="succeeded"]`);
    await run.waitFor();
    const decide = run.locator('[data-testid="step"][data-step-name="decide"]');
    await decide.getByTestId("step-return").getByText('"approved"').waitFor();
    await decide.getByTestId("step-logs").getByText('decided {"approved":true}').waitFor();
    const got = await t.request("GET", `/v1/runs/${suspended.id}?expand=steps`);
    assert.equal(got.body.data.status, "succeeded");
    assert.deepEqual(got.body.data.steps[1].return_value, { approved: true });
  });

  it("a run id that is not there shows 'Run not found'", async () => {
    await go("#/runs/r_doesnotexist000");
    await page.getByTestId("empty-state").getByText("Run not found").waitFor();
    await shot("run-not-found");
  });

  it("a source's invocation shows its error and its log lines together, and new ones arrive live", async () => {
    const source = await createSource(t, FLAKY_SOURCE, { name: "Kettle parser" });
    await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { what: "a kettle" } });
    await waitFor(async () => (await t.request("GET", `/v1/sources/${source.id}/event_summaries?event_name=%24errors`)).body.data.length > 0, 20_000, "the $errors event");
    await go(`#/sources/${source.id}/invocations`);
    const failed = page.locator('[data-testid="invocation"][data-status="failed"]');
    await failed.getByTestId("invocation-summary").getByText("RangeError: cannot handle a kettle").waitFor();
    await failed.getByText("2 log lines").waitFor();
    await failed.getByRole("button").first().click();
    const detail = failed.getByTestId("invocation-detail");
    assert.match(await detail.getByTestId("error-stack").innerText(), /RangeError: cannot handle a kettle/);
    await detail.locator('[data-testid="log-line"][data-level="log"]').getByText("got a kettle").waitFor();
    await detail.locator('[data-testid="log-line"][data-level="warn"]').getByText("about to fail").waitFor();
    // an invocation that only logs arrives on top, while the page stays open
    await page.evaluate("window.__sameDocument = 'invocations'");
    await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { what: "tea", ok: true } });
    const ok = page.locator('[data-testid="invocation"][data-status="ok"]');
    await ok.getByText("1 log line").waitFor();
    assert.equal(await page.evaluate("window.__sameDocument"), "invocations");
    const order = await page.getByTestId("invocation").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status")));
    assert.deepEqual(order, ["ok", "failed"]);
    await failed.getByTestId("invocation-detail").waitFor();
    await shot("source-invocations");
  });

  it("fits a 420 px wide screen: nothing clipped", async () => {
    await page.setViewportSize({ width: 420, height: 860 });
    try {
      await go(`#/workflows/${orders.id}`);
      await page.getByTestId("runs-table").getByTestId("run-row").nth(2).waitFor();
      await badgesWhole();
      await shot("runs-list-420");
      const [failedRun] = await runsOf(orders, "failed");
      await go(`#/runs/${failedRun.id}`);
      await page.locator(`[data-testid="run-page"][data-run-id="${failedRun.id}"]`).getByTestId("error-block").first().waitFor();
      await badgesWhole();
      await shot("run-failed-420");
      const source = (await t.request("GET", "/v1/users/me/sources/")).body.data.find((s: { name: string }) => s.name === "Kettle parser");
      await go(`#/sources/${source.id}/invocations`);
      await page.getByTestId("invocation").nth(1).waitFor();
      await badgesWhole();
      await shot("source-invocations-420");
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
