import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { browserSkip, go as goTo, openDashboard, SHOTS, type Dashboard } from "../browser.ts";
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Page } from "playwright-core";
import { createSource, startApp, waitFor, type TestApp } from "../helpers.ts";

// Failures that show (headless Chromium): a source's Run now that fails is a toast with the
// error, failing sources and workflows carry their error count and newest message on the lists
// and an alert on their pages, and a webhook made in the dashboard shows its signing secret once,
// which verifies the deliveries it then receives.


const THROWS = `export default {
  name: "Parser",
  version: "0.1.0",
  props: { http: "$.interface.http" },
  run(event) { throw new TypeError("the parser choked on " + JSON.stringify(event?.body ?? null)); },
};`;

describe("dashboard: failures that show", { skip: browserSkip }, () => {
  let t: TestApp;
  let page: Page;
  let dash: Dashboard | undefined;
  let receiver: Server;
  const received: Array<{ body: string; signature: string | undefined }> = [];

  before(async () => {
    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString("utf8"), signature: req.headers["x-tributary-signature"] as string | undefined });
        res.end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as AddressInfo).port;
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
    dash = await openDashboard(t);
    ({ page } = dash);
  });

  after(async () => {
    await dash?.close();
    await t?.close();
    receiver?.close();
  });

  const shot = async (name: string) => {
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const go = (hash: string) => goTo(page, hash);

  it("Run now on a source that throws: a toast with the error; the list and the page show the failure", async () => {
    const src = await createSource(t, THROWS, { name: "Parser" });
    await go(`#/sources/${src.id}`);
    await page.getByRole("heading", { name: "Parser" }).waitFor();
    assert.equal(await page.getByTestId("failure-alert").count(), 0, "no alert before anything failed");
    await page.getByRole("button", { name: "Run now" }).click();
    // the run is accepted, then fails in the background: its error comes as a toast
    await page.locator(".mantine-Notification-root").filter({ hasText: "the run failed" }).filter({ hasText: "TypeError: the parser choked on null" }).waitFor();
    await page.getByTestId("failure-alert").getByText(/TypeError: the parser choked on null/).waitFor({ timeout: 15_000 });
    await shot("failure-source-page");
    await go("#/sources");
    const badge = page.getByTestId("sources-table").getByTestId("failure-badge");
    await badge.getByText("1 error").waitFor();
    await badge.getByText(/the parser choked on null/).waitFor();
    await shot("failure-sources-list");
    await badge.click();
    await page.waitForURL(new RegExp(`#/sources/${src.id}/errors$`));
  });

  it("a failing workflow: the list names the step, the page shows the newest error", async () => {
    const res = await t.request("POST", "/v1/workflows", {
      body: {
        name: "Charger",
        trigger: { type: "http" },
        steps: [
          { name: "fetch", code: "export default { async run() { return 1; } };" },
          { name: "charge", code: `export default { async run() { throw new Error("card declined"); } };` },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    const w = res.body.data;
    await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    await waitFor(async () => {
      const s = await t.request("GET", `/v1/users/me/error_summaries?ids=${w.id}`);
      return s.body.data[0]?.count === 2 ? true : undefined;
    }, 10_000, "two failed runs");
    await go("#/workflows");
    const badge = page.getByTestId("failure-badge");
    await badge.getByText("2 errors").waitFor();
    await badge.hover();
    await page.getByRole("tooltip").getByText(/step charge: Error: card declined/).waitFor();
    await shot("failure-workflows-list");
    await go(`#/workflows/${w.id}`);
    await page.getByTestId("failure-alert").getByText("step charge: Error: card declined").waitFor();
  });

  it("fits a 420 px wide screen: the lists' badges are whole, the page doesn't scroll sideways", async () => {
    await page.setViewportSize({ width: 420, height: 860 });
    try {
      for (const [hash, shotName] of [["#/sources", "sources-420"], ["#/workflows", "workflows-420"], ["#/subscriptions", "subscriptions-420"]] as const) {
        await go(hash);
        await page.locator("main h2").first().waitFor();
        if (hash !== "#/subscriptions") await page.getByTestId("failure-badge").first().waitFor();
        const clipped = await page.evaluate(() => {
          const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ scrollWidth: number; clientWidth: number; textContent: string | null }> } }).document;
          return Array.from(d.querySelectorAll(".mantine-Badge-root, .mantine-Badge-label"))
            .filter((e) => e.scrollWidth > e.clientWidth + 1)
            .map((e) => e.textContent);
        });
        assert.deepEqual(clipped, [], `${hash}: badges whose text is clipped`);
        const wide = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
        assert.ok(wide <= 420, `${hash} is ${wide} px wide`);
        await shot(shotName);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("a webhook made in the dashboard shows its signing secret once; deliveries verify with it", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await go("#/webhooks");
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("Name").fill("Receiver");
    await page.getByRole("button", { name: "Create webhook" }).click();
    const panel = page.getByTestId("webhook-secret");
    await panel.waitFor();
    const secret = (await panel.locator("code").first().innerText()).trim();
    assert.match(secret, /^whsec_/);
    await shot("webhook-secret");
    const hooks = await t.request("GET", "/v1/users/me/webhooks");
    const hook = hooks.body.data.find((h: { name: string }) => h.name === "Receiver");
    assert.equal(hook.secret, undefined, "the list never shows it");
    const src = await createSource(t, `export default { run() { this.$emit({ signed: true }); } };`);
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${src.id}&listener_id=${hook.id}`);
    assert.equal(sub.status, 200, sub.text);
    await t.request("POST", `/v1/sources/${src.id}/run`);
    const got = await waitFor(async () => received.find((r) => r.body.includes('"signed"')), 10_000, "a delivery");
    assert.equal(got.signature, `sha256=${createHmac("sha256", secret).update(got.body).digest("hex")}`);
    // shown once: after a reload the page has no secret to show
    await page.reload();
    await page.getByRole("heading", { name: "Webhooks", exact: true }).waitFor();
    assert.equal(await page.getByTestId("webhook-secret").count(), 0);
    assert.ok(!(await page.content()).includes(secret));
  });
});
