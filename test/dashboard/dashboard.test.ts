import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { chromium, type BrowserContext, type Locator, type Page } from "playwright-core";
import { createSource, endpointPath, HTTP_COMPONENT, startApp, waitFor, type TestApp } from "../helpers.ts";

// The web dashboard in headless Chromium (Debian's `chromium`, driven by playwright-core): sign
// in, deploy from the registry with a props form, watch an event arrive live, open an $errors
// entry, disable a source, see a webhook's failed delivery. Each page is saved as a screenshot
// under test-output/screenshots/. The dashboard only talks to the API, so it runs on one store.

const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = join(import.meta.dirname, "..", "..", "test-output", "screenshots");
const skip =
  process.env.TRIBUTARY_TEST_STORE === "postgres"
    ? "the dashboard is store-agnostic: its browser tests run in the SQLite pass only"
    : !existsSync(CHROMIUM)
      ? `no Chromium at ${CHROMIUM} (install Debian's chromium, or set PLAYWRIGHT_CHROMIUM): browser tests skipped`
      : false;

const THROWING_COMPONENT = `
export default {
  name: "Throws",
  version: "0.1.0",
  props: { http: "$.interface.http" },
  run(event) { throw new Error("the parser choked on " + event.body.what); },
};
`;

const BURST_COMPONENT = `
export default {
  name: "Burst",
  version: "0.1.0",
  props: { http: "$.interface.http" },
  run(event) { for (let n = 1; n <= event.body.count; n++) this.$emit({ n }, { summary: "burst event " + n }); },
};
`;

/** A 127.0.0.1 port with nothing listening: deliveries to it fail at once (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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

describe("dashboard: off", () => {
  it("TRIBUTARY_DASHBOARD=off: / is the API's 404 envelope", async () => {
    const t = await startApp({ TRIBUTARY_DASHBOARD: "off" });
    try {
      const res = await t.request("GET", "/", { key: null });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, "not_found");
    } finally {
      await t.close();
    }
  });
});

describe("dashboard", { skip }, () => {
  let t: TestApp;
  let origin: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let deadPort: number;

  before(async () => {
    deadPort = await closedPort();
    t = await startApp({ TRIBUTARY_WEBHOOK_BACKOFF_MS: "50,50,50,50", TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${deadPort}` });
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}`;
    mkdirSync(SHOTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), "tributary-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 860 },
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = context.pages()[0] ?? (await context.newPage());
  });

  after(async () => {
    await context?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const shot = async (name: string) => {
    // from the top: a full-page shot of a scrolled page draws the fixed header mid-page
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  /** The viewport scrolled to an element: the bottom of a long list, where a full-page shot is tiny. */
  const shotAt = async (name: string, at: ReturnType<Page["locator"]>) => {
    await at.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  };
  /** Waits for an open modal to finish fading in (a condition, not a sleep). */
  const modalShown = () =>
    page.waitForFunction(() => {
      const w = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<object> }; getComputedStyle(e: object): { opacity: string } };
      return Array.from(w.document.querySelectorAll(".mantine-Modal-content")).some((e) => w.getComputedStyle(e).opacity === "1");
    });
  const go = async (hash: string) => {
    await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), hash);
  };

  // the code editor (CodeMirror 6 with its JavaScript grammar, ~145 KB gzipped) is imported lazily
  // by code-editor.tsx: esbuild splits it into a chunk the first page doesn't load
  it("serves its assets hashed, precompressed and cacheable, the first page under 300 KB gzipped (the code editor is a chunk loaded later)", async () => {
    const html = await t.request("GET", "/", { key: null });
    assert.equal(html.status, 200);
    assert.match(String(html.headers["content-type"]), /^text\/html/);
    assert.equal(html.headers["cache-control"], "no-cache");
    assert.match(String(html.headers["content-security-policy"]), /connect-src 'self'/);
    // scripts only by a nonce made per response, not 'self' (a source may serve JavaScript under /http/)
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(String(html.headers["content-security-policy"]))?.[1];
    assert.ok(nonce, String(html.headers["content-security-policy"]));
    assert.ok(html.text.includes(`<script nonce="${nonce}" type="module"`), html.text);
    const next = await t.request("GET", "/", { key: null });
    assert.ok(!String(next.headers["content-security-policy"]).includes(nonce), "a new nonce for each response");
    const names = [...html.text.matchAll(/\/assets\/([\w.-]+)/g)].map((m) => m[1]);
    assert.equal(names.length, 2, html.text);
    let total = 0;
    for (const name of names) {
      assert.match(name, /-[A-Z0-9]{8}\.(js|css)$/, "content-hashed name");
      const res = await t.app.http.inject({ method: "GET", url: `/assets/${name}`, headers: { "accept-encoding": "gzip" } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers["content-encoding"], "gzip");
      assert.equal(res.headers["cache-control"], "public, max-age=31536000, immutable");
      assert.ok(gunzipSync(res.rawPayload).length > res.rawPayload.length);
      total += res.rawPayload.length;
      const again = await t.app.http.inject({ method: "GET", url: `/assets/${name}`, headers: { "if-none-match": String(res.headers.etag) } });
      assert.equal(again.statusCode, 304);
    }
    assert.ok(total < 300 * 1024, `the first page's assets are ${total} bytes gzipped`);
    process.stdout.write(`# dashboard first-page assets: ${total} bytes gzipped\n`);
    const missing = await t.request("GET", "/assets/main-NOPE.js", { key: null });
    assert.equal(missing.status, 404);
  });

  it("signs in with an API key; a wrong key shows the API's error", async () => {
    await page.goto(origin + "/");
    const key = page.getByLabel("API key");
    await key.waitFor();
    const loadMs = await page.evaluate(() => performance.now());
    process.stdout.write(`# dashboard first load (navigation start to the sign-in form): ${Math.round(loadMs)} ms\n`);
    await key.fill("trb_not_a_real_key");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText(/key/i).and(page.locator(".mantine-InputWrapper-error")).waitFor();
    await shot("sign-in-error");
    await key.fill(t.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Sources", exact: true }).waitFor();
    await page.getByText("No sources yet").waitFor();
    assert.ok(!page.url().includes(t.adminKey), "the key is never in the URL");
    await shot("sources-empty");
  });

  it("keeps no key where a script can read it: an HttpOnly session cookie, nothing in storage", async () => {
    const stored = String(await page.evaluate("JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })"));
    assert.ok(!stored.includes(t.adminKey), `the key is in the page's storage: ${stored}`);
    assert.deepEqual(JSON.parse(stored), { local: {}, session: {} });
    const visible = String(await page.evaluate("document.cookie"));
    assert.ok(!visible.includes("tributary_session"), `the session cookie is visible to scripts: ${visible}`);
    const [cookie] = (await context.cookies(origin)).filter((c) => c.name === "tributary_session");
    assert.ok(cookie, "the browser holds the session cookie");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, "Strict");
    assert.equal(cookie.path, "/");
    assert.ok(!cookie.value.includes(t.adminKey.slice(0, 12)), "the cookie is not the key");
    // the session survives a reload (the cookie, not the page's memory, holds it), and a key an
    // earlier version kept in localStorage is removed
    await page.evaluate("localStorage.setItem('tributary.apiKey', 'trb_kept_by_an_earlier_version')");
    await page.reload();
    await page.getByRole("heading", { name: "Sources", exact: true }).waitFor();
    await page.getByTestId("whoami").getByText("admin").waitFor();
    assert.equal(await page.evaluate("localStorage.length"), 0);
  });

  it("deploys a registry component from its props form", async () => {
    await page.getByRole("link", { name: "Deploy from the registry" }).click();
    await page.getByTestId("registry-item").filter({ hasText: "Custom Interval" }).click();
    const form = page.getByTestId("deploy-form");
    await form.waitFor();
    await form.getByLabel("Source name").fill("Every two minutes");
    await form.getByRole("spinbutton", { name: "seconds" }).fill("120");
    await shot("deploy");
    await form.getByRole("button", { name: "Deploy source" }).click();
    await page.getByRole("heading", { name: "Every two minutes" }).waitFor();
    const list = await t.request("GET", "/v1/users/me/sources/");
    const made = list.body.data.find((s: { name: string }) => s.name === "Every two minutes");
    assert.ok(made, list.text);
    assert.equal(made.configured_props.timer.interval_seconds ?? made.configured_props.timer.intervalSeconds, 120, JSON.stringify(made.configured_props));
  });

  it("shows a new event live in the inspector", async () => {
    const source = await createSource(t, HTTP_COMPONENT, { name: "Incoming orders" });
    await go(`#/sources/${source.id}`);
    await page.getByRole("heading", { name: "Incoming orders" }).waitFor();
    await page.getByText("No events yet").waitFor();
    await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
    const res = await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { order: 1234, items: ["tea", "scones"] } });
    assert.equal(res.statusCode, 200);
    const row = page.getByTestId("event-row").first();
    await row.waitFor();
    const firstId = await row.getAttribute("data-event-id");
    await row.getByRole("button").first().click();
    await row.getByTestId("event-detail").getByText('"scones"').waitFor();
    await row.getByTestId("event-detail").getByText("1234", { exact: true }).waitFor();
    // a second one arrives above the first, which stays open (not re-rendered)
    await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { order: 1235 } });
    await page.locator('[data-testid="event-row"]').nth(1).and(page.locator(`[data-event-id="${firstId}"]`)).waitFor();
    await page.locator(`[data-event-id="${firstId}"]`).getByTestId("event-detail").waitFor();
    await shot("source-events");
    await go("#/sources");
    await page.getByTestId("sources-table").getByText("Incoming orders").waitFor();
    await shot("sources");
  });

  it("opens an $errors entry of a component that throws", async () => {
    const source = await createSource(t, THROWING_COMPONENT, { name: "Fragile parser" });
    await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { what: "a tab character" } });
    await waitFor(async () => {
      const r = await t.request("GET", `/v1/sources/${source.id}/event_summaries?event_name=%24errors`);
      return r.body.data.length > 0;
    }, 20_000, "the $errors event");
    await go(`#/sources/${source.id}/errors`);
    const row = page.getByTestId("event-row").first();
    await row.waitFor();
    // the row says the error, not the start of its JSON
    await row.getByText("Error: the parser choked on a tab character").waitFor();
    await row.getByRole("button").first().click();
    await row.getByTestId("event-detail").getByText(/the parser choked on a tab character/).first().waitFor();
    await shot("source-errors");
  });

  it("disables a source, and the API confirms it", async () => {
    const source = await createSource(t, HTTP_COMPONENT, { name: "To be paused" });
    await go(`#/sources/${source.id}`);
    await page.getByRole("heading", { name: "To be paused" }).waitFor();
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByTestId("source-status").getByText("disabled").waitFor();
    await page.getByRole("button", { name: "Enable" }).waitFor();
    const res = await t.request("GET", `/v1/sources/${source.id}`);
    assert.equal(res.body.data.active, false);
    await go(`#/sources/${source.id}/props`);
    await page.getByRole("tab", { name: "Props", selected: true }).waitFor();
    await shot("source-props");
  });

  it("shows a webhook's failed delivery", async () => {
    const source = await createSource(t, HTTP_COMPONENT, { name: "Hook feeder" });
    const hook = await t.request("POST", `/v1/webhooks?url=${encodeURIComponent(`http://127.0.0.1:${deadPort}/in`)}&name=Nowhere`);
    assert.equal(hook.status, 200, hook.text);
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${source.id}&listener_id=${hook.body.data.id}`);
    assert.equal(sub.status, 200, sub.text);
    await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { ping: true } });
    await waitFor(async () => {
      const r = await t.request("GET", `/v1/webhooks/${hook.body.data.id}/deliveries`);
      return r.body.data[0]?.status === "failed";
    }, 30_000, "the delivery to fail");
    await go("#/webhooks");
    await page.getByRole("link", { name: "Nowhere" }).click();
    const failed = page.getByTestId("deliveries").locator('[data-status="failed"]');
    await failed.waitFor();
    assert.match(await failed.innerText(), /failed/);
    await shot("webhook-deliveries");
    await go("#/webhooks");
    await page.getByRole("link", { name: "Nowhere" }).waitFor();
    await shot("webhooks");
  });

  it("another user's source id shows 'not found', not its data", async () => {
    const other = await t.newUser();
    const theirs = await createSource(t, HTTP_COMPONENT, { name: "Somebody else's secret" }, other.key);
    // sign in as a third user, who owns nothing
    const me = await t.newUser();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").fill(me.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("No sources yet").waitFor();
    await go(`#/sources/${theirs.id}`);
    await page.getByText("Source not found").waitFor();
    assert.equal(await page.getByText("Somebody else's secret").count(), 0);
    await shot("source-not-found");
    await go("#/users");
    await page.getByText("Admins only").waitFor();
    // back as the admin
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").fill(t.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Sources", exact: true }).waitFor();
  });

  it("the other pages render (screenshots)", async () => {
    await go("#/workflows");
    await page.getByText("No workflows yet").waitFor();
    await shot("workflows");
    await go("#/subscriptions");
    await page.getByRole("heading", { name: "Subscriptions", exact: true }).waitFor();
    await page.getByRole("cell", { name: "default" }).first().waitFor();
    await shot("subscriptions");
    await go("#/accounts");
    await page.getByText("No accounts yet").waitFor();
    await shot("accounts");
    await go("#/usage");
    await page.getByTestId("usage-meter").first().waitFor();
    await shot("usage");
    await go("#/users");
    await page.getByRole("heading", { name: "Users", exact: true }).waitFor();
    await page.getByLabel("Username").fill("newperson");
    await page.getByLabel("Email").fill("newperson@example.com");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByTestId("new-key").getByText(/newperson created/).waitFor();
    await shot("users");
    await go("#/deploy");
    await page.getByText("Paste code", { exact: true }).click();
    await setCode(page.getByLabel("Component code"), "export default { nope");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByTestId("error").waitFor();
    // the editor marks the line the syntax error names
    await page.locator('[data-testid="component-code"][data-error-line="1"] .cm-lintRange-error').waitFor();
    await shot("deploy-code-error");
  });
  it("creates a workflow from the form: a step that doesn't load is named, steps reorder", async () => {
    await go("#/workflows");
    await page.getByTestId("empty-state").getByRole("link", { name: "New workflow" }).click();
    const form = page.getByTestId("workflow-form");
    await form.waitFor();
    // a new workflow starts with a step that runs as it is
    assert.match(await codeOf(form.getByLabel("Code of emit")), /steps\.trigger\.event/);
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Greeter");
    await form.getByRole("button", { name: "Add a code step" }).click();
    await form.getByLabel("Code of step_2").waitFor();
    await form.getByRole("button", { name: "Add a code step" }).click();
    await form.getByRole("button", { name: "Remove step_3" }).click();
    await form.getByTestId("step").nth(1).getByLabel("Step name").fill("shout");
    await setCode(form.getByLabel("Code of shout"), "export default { async run( { return 1 } };");
    await form.getByRole("button", { name: "Create workflow" }).click();
    // the 422 names the step: shown under that step's code, its line marked in the editor
    const shout = form.locator('[data-testid="step"][data-step-name="shout"]');
    await shout.locator(".mantine-InputWrapper-error").getByText(/syntax/i).waitFor();
    await shout.locator('[data-error-line="1"] .cm-lintRange-error').waitFor();
    await form.getByTestId("error").waitFor();
    await shot("workflow-new-error");
    await setCode(form.getByLabel("Code of shout"), 'export default { async run({ steps }) { return String(steps.trigger.event?.body?.who ?? "nobody").toUpperCase(); } };');
    await form.getByRole("button", { name: "Move shout up" }).click();
    assert.deepEqual(await form.getByTestId("step").evaluateAll((els) => els.map((e) => e.getAttribute("data-step-name"))), ["shout", "emit"]);
    await shot("workflow-new");
    await form.getByRole("button", { name: "Create workflow" }).click();
    await page.getByRole("heading", { name: "Greeter" }).waitFor();
    const list = await t.request("GET", "/v1/users/me/workflows");
    const made = list.body.data.find((w: { name: string }) => w.name === "Greeter");
    assert.ok(made, list.text);
    assert.deepEqual(made.steps.map((s: { name: string }) => s.name), ["shout", "emit"]);
    assert.equal(made.trigger.type, "http");
    // its endpoint runs it; what the example step emits shows live
    await page.getByRole("tab", { name: "Events" }).click();
    await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
    const res = await t.app.http.inject({ method: "POST", url: new URL(made.trigger.endpoint_url).pathname, payload: { who: "ada" } });
    assert.equal(res.statusCode, 200);
    await page.getByTestId("event-row").first().waitFor();
    await shot("workflow");
  });

  it("edits a workflow (PUT), disables it, deletes it after a confirmation", async () => {
    const list = await t.request("GET", "/v1/users/me/workflows");
    const w = list.body.data.find((x: { name: string }) => x.name === "Greeter");
    await go(`#/workflows/${w.id}`);
    await page.getByRole("link", { name: "Edit" }).click();
    const form = page.getByTestId("workflow-form");
    // the saved steps, their code in the editors
    await form.getByLabel("Code of shout").waitFor();
    assert.deepEqual(await form.getByTestId("step").evaluateAll((els) => els.map((e) => e.getAttribute("data-step-name"))), ["shout", "emit"]);
    assert.match(await codeOf(form.getByLabel("Code of shout")), /toUpperCase\(\)/);
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Greeter v2");
    await form.getByText("Timer", { exact: true }).click();
    await form.getByText("Cron", { exact: true }).click();
    await form.getByLabel("Cron expression (UTC)").fill("*/5 * * * *");
    await shot("workflow-edit");
    await form.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "Greeter v2" }).waitFor();
    let got = await t.request("GET", `/v1/workflows/${w.id}`);
    assert.deepEqual(got.body.data.trigger, { type: "timer", interval_seconds: null, cron: "*/5 * * * *" });
    assert.deepEqual(got.body.data.steps.map((s: { name: string }) => s.name), ["shout", "emit"], "the steps are kept");
    assert.match(got.body.data.steps[0].code, /toUpperCase\(\)/);
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByTestId("workflow-status").getByText("disabled").waitFor();
    got = await t.request("GET", `/v1/workflows/${w.id}`);
    assert.equal(got.body.data.active, false);
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete Greeter v2?").waitFor();
    await modalShown();
    await shot("workflow-delete-confirm");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Workflows", exact: true }).waitFor();
    await page.getByText("No workflows yet").waitFor();
    got = await t.request("GET", `/v1/workflows/${w.id}`);
    assert.equal(got.status, 404);
  });
  it("lists show a page at a time: Load more appends the next, a delete keeps what is shown", async () => {
    for (let i = 1; i <= 55; i++) {
      const res = await t.request("POST", `/v1/webhooks?url=${encodeURIComponent(`http://127.0.0.1:${deadPort}/p${i}`)}&name=Paged%20${String(i).padStart(2, "0")}`);
      assert.equal(res.status, 200, res.text);
    }
    const total = (await t.request("GET", "/v1/users/me/webhooks?limit=1")).body.page_info.total_count;
    assert.ok(total > 55);
    await go("#/webhooks");
    const rows = page.locator("tbody tr");
    await page.getByRole("link", { name: "Paged 55" }).waitFor();
    assert.equal(await rows.count(), 50);
    const more = page.getByTestId("load-more");
    await more.getByText(`50 of ${total} webhooks`).waitFor();
    await shot("webhooks-load-more");
    await shotAt("webhooks-load-more-bottom", more);
    await more.getByRole("button", { name: "Load more" }).click();
    await more.getByText(`${total} of ${total} webhooks`).waitFor();
    assert.equal(await rows.count(), total);
    assert.equal(await more.getByRole("button", { name: "Load more" }).count(), 0);
    // deleting one reloads as many as were shown, not just the first page
    await page.getByRole("row").filter({ hasText: "Paged 01" }).getByRole("button", { name: "Delete" }).click();
    await modalShown();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await more.getByText(`${total - 1} of ${total - 1} webhooks`).waitFor();
    assert.equal(await rows.count(), total - 1);
  });

  it("the event inspector loads older events with the events' cursor", async () => {
    const source = await createSource(t, BURST_COMPONENT, { name: "Burst" });
    await t.app.http.inject({ method: "POST", url: endpointPath(source), payload: { count: 70 } });
    await waitFor(async () => (await t.request("GET", `/v1/sources/${source.id}/event_summaries?limit=100`)).body.data.length === 70, 20_000, "70 events");
    await go(`#/sources/${source.id}`);
    const rows = page.getByTestId("event-row");
    await rows.first().getByText("burst event 70").waitFor();
    assert.equal(await rows.count(), 50);
    await shotAt("source-events-load-older", page.getByRole("button", { name: "Load older events" }));
    await page.getByRole("button", { name: "Load older events" }).click();
    await rows.last().getByText("burst event 1", { exact: true }).waitFor();
    assert.equal(await rows.count(), 70);
    assert.equal(await page.getByRole("button", { name: "Load older events" }).count(), 0);
    await shot("source-events-older");
  });
  it("deleting a subscription asks first", async () => {
    const source = await createSource(t, HTTP_COMPONENT, { name: "Sub emitter" });
    const hook = await t.request("POST", `/v1/webhooks?url=${encodeURIComponent(`http://127.0.0.1:${deadPort}/sub`)}&name=Sub%20listener`);
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${source.id}&listener_id=${hook.body.data.id}`);
    assert.equal(sub.status, 200, sub.text);
    const subs = async () => (await t.request("GET", "/v1/users/me/subscriptions")).body.data.filter((x: { emitter_id: string }) => x.emitter_id === source.id);
    await go("#/subscriptions");
    const row = page.getByTestId("subscription").filter({ hasText: source.id });
    await row.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete this subscription?").waitFor();
    await dialog.getByText(`will no longer be delivered to ${hook.body.data.id}`, { exact: false }).waitFor();
    await modalShown();
    await shot("subscription-delete-confirm");
    // Cancel keeps it
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.equal((await subs()).length, 1);
    await row.getByRole("button", { name: "Delete" }).click();
    await modalShown();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await row.waitFor({ state: "detached" });
    assert.equal((await subs()).length, 0);
  });
});

describe("dashboard: the session ends with its key", { skip }, () => {
  let t: TestApp;
  let profile: string;
  let context: BrowserContext;

  before(async () => {
    t = await startApp();
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    profile = mkdtempSync(join(tmpdir(), "tributary-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });
  after(async () => {
    await context?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it("a rotated key signs its sessions out: the next request shows the sign-in page and why", async () => {
    const origin = `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}`;
    const user = await t.newUser();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(origin + "/");
    await page.getByLabel("API key").fill(user.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("No sources yet").waitFor();
    const rotated = await t.request("POST", "/v1/users/me/api_key", { key: user.key });
    assert.equal(rotated.status, 200, rotated.text);
    await page.evaluate("location.hash = '#/workflows'");
    await page.getByText(/session has ended/).waitFor();
    await page.getByLabel("API key").waitFor();
    // Sign out clears the cookie: a reload stays signed out
    await page.getByLabel("API key").fill(rotated.body.data.api_key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("No sources yet").waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    assert.equal((await context.cookies(origin)).filter((c) => c.name === "tributary_session").length, 0);
    await page.reload();
    await page.getByLabel("API key").waitFor();
  });
});
