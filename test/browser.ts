import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import type { TestApp } from "./helpers.ts";

// What the dashboard's browser tests share: Debian's Chromium driven by playwright-core, a
// service listening on a port, a signed-in admin, screenshots under test-output/screenshots/.
// The dashboard only talks to the API, so these tests run in the SQLite pass only.

export const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM ?? "/usr/bin/chromium";
export const SHOTS = join(import.meta.dirname, "..", "test-output", "screenshots");

/** why the browser tests are skipped here, or false */
export const browserSkip: string | false =
  process.env.TRIBUTARY_TEST_STORE === "postgres"
    ? "the dashboard is store-agnostic: its browser tests run in the SQLite pass only"
    : !existsSync(CHROMIUM)
      ? `no Chromium at ${CHROMIUM} (install Debian's chromium, or set PLAYWRIGHT_CHROMIUM): browser tests skipped`
      : false;

export interface Dashboard {
  origin: string;
  context: BrowserContext;
  page: Page;
  /** closes the browser and removes its profile (the app is the caller's to close) */
  close(): Promise<void>;
}

/** `t` listening on a port, and a headless Chromium signed in to its dashboard as the admin. */
export async function openDashboard(t: TestApp, opts: { viewport?: { width: number; height: number }; clipboard?: boolean; port?: number } = {}): Promise<Dashboard> {
  await t.app.http.listen({ port: opts.port ?? 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}`;
  mkdirSync(SHOTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "tributary-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: opts.viewport ?? { width: 1280, height: 860 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  if (opts.clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  // the first page a fresh Chromium loads can take long on a busy 2-core machine (one CI run
  // passed 30 s, Playwright's default, while the suite's other files ran beside it)
  await page.goto(origin + "/", { timeout: 90_000 });
  await page.getByLabel("API key").fill(t.adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Sources", exact: true }).waitFor();
  return {
    origin,
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Goes to a dashboard route (`#/sources/dc_...`). */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), hash);
}

/** Waits for an open modal to finish fading in (a condition, not a sleep). */
export async function modalShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const w = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<object> }; getComputedStyle(e: object): { opacity: string } };
    return Array.from(w.document.querySelectorAll(".mantine-Modal-content")).some((e) => w.getComputedStyle(e).opacity === "1");
  });
}

/** A 127.0.0.1 port with nothing listening: a delivery or send to it fails at once (refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
