import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { randomBytes } from "node:crypto";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { createSource, endpointPath, eventsOf, HTTP_COMPONENT, listenLocally, startApp, waitEvents, waitFor, type TestApp } from "../helpers.ts";
import { DashboardSessions } from "../../src/core/dashboard-sessions.ts";
import { resolveConfig } from "../../src/config.ts";
import { serverWithFirstLook } from "../../src/http/connections.ts";
import { refuseEarly } from "../../src/http/early-refusal.ts";

// HTTP endpoints (/http/<key>) answer on the dashboard's origin. A source answering text/html with
// a script must not run with that origin: every endpoint reply carries `Content-Security-Policy:
// sandbox` (an opaque origin: no scripts, no storage, no cookies of ours) and nosniff, whoever
// made it; and the dashboard keeps no key a script could read (an HttpOnly session cookie, taken
// by the API only with the dashboard's header). (a) the headers on every kind of endpoint reply,
// (b) an attacker's page in Chromium next to a signed-in admin, (c) the session cookie's rules.

const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM ?? "/usr/bin/chromium";
const noBrowser =
  process.env.TRIBUTARY_TEST_STORE === "postgres"
    ? "browser tests run in the SQLite pass only"
    : !existsSync(CHROMIUM)
      ? `no Chromium at ${CHROMIUM} (install Debian's chromium, or set PLAYWRIGHT_CHROMIUM): browser test skipped`
      : false;
const SECRET = randomBytes(32).toString("hex");
const DASHBOARD = { "x-tributary-dashboard": "1" };

// What an attacker's script would try: the storage, the cookies, the API as whoever opened the page.
const PROBE = `(async () => {
  const got = {};
  try { got.storage = JSON.stringify({ ...localStorage }); } catch (e) { got.storage = "threw " + e.name; }
  try { got.cookie = document.cookie; } catch (e) { got.cookie = "threw " + e.name; }
  const tries = { plain: ["/v1/users/me", {}], dashboard: ["/v1/users/me", { headers: { "X-Tributary-Dashboard": "1" } }], session: ["/dashboard/session", { headers: { "X-Tributary-Dashboard": "1" } }] };
  for (const [name, [url, init]] of Object.entries(tries)) {
    try { const r = await fetch(url, { credentials: "include", ...init }); got[name] = r.status + " " + (await r.text()); } catch (e) { got[name] = "threw " + e.name; }
  }
  return got;
})()`;

const PAGE = `<!doctype html><title>untouched</title><div id="out">untouched</div>
<script>document.title = "script ran"; ${PROBE}.then((got) => { document.title = JSON.stringify(got); });</script>`;

// A tenant's source: answers its page; /own-headers tries to loosen ours, set the dashboard's
// cookie and clear its data; /fail throws before it responds.
const ATTACKER = `
export default {
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    this.$emit({ path: event.path, cookie: event.headers.cookie ?? null });
    if (event.path === "/fail") throw new Error("no answer");
    const headers = { "content-type": "text/html; charset=utf-8" };
    if (event.path.startsWith("/cookie/")) headers["Set-Cookie"] = decodeURIComponent(event.path.slice(8));
    if (event.path === "/own-headers") Object.assign(headers, {
      "Content-Security-Policy": "sandbox allow-scripts allow-same-origin",
      "X-Content-Type-Options": "sniff",
      "Set-Cookie": "tributary_session=tossed; Path=/",
      "Clear-Site-Data": '"cookies", "storage"',
    });
    this.http.respond({ status: 200, headers, body: ${JSON.stringify(PAGE)} });
  },
};`;

const SLOW = `
export default {
  props: { http: "$.interface.http" },
  async run() { await new Promise((r) => setTimeout(r, 1000)); },
};`;

type Headers = Record<string, unknown> | globalThis.Headers;
const header = (h: Headers, name: string): string | undefined => {
  const v = h instanceof globalThis.Headers ? h.get(name) : h[name];
  return v === undefined || v === null ? undefined : Array.isArray(v) ? v.join(", ") : String(v);
};

/** Ours are there whatever else is: CSP sandbox as a policy of its own, and nosniff alone. */
function assertSandboxed(h: Headers, what: string): void {
  const policies = (header(h, "content-security-policy") ?? "").split(",").map((p) => p.trim());
  assert.ok(policies.includes("sandbox"), `${what}: Content-Security-Policy ${JSON.stringify(policies)}`);
  assert.equal(header(h, "x-content-type-options"), "nosniff", `${what}: X-Content-Type-Options`);
}

const cookieOf = (setCookie: unknown): string => String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(";")[0];

describe("(a) every endpoint reply is sandboxed", () => {
  let t: TestApp;
  let base: string;
  let plain: string;
  let attacker: string;
  before(async () => {
    t = await startApp();
    base = await listenLocally(t);
    plain = endpointPath(await createSource(t, HTTP_COMPONENT));
    attacker = endpointPath(await createSource(t, ATTACKER));
  });
  after(() => t.close());

  const kinds = () => [
    { what: "the default acceptance", method: "POST", url: plain, body: "{}", status: 200 },
    { what: "a GET of the default acceptance", method: "GET", url: `${plain}/page`, status: 200 },
    { what: "a source's HTML reply", method: "GET", url: attacker, status: 200 },
    { what: "a source that sets its own CSP and nosniff", method: "GET", url: `${attacker}/own-headers`, status: 200 },
    { what: "a source that fails before it responds", method: "GET", url: `${attacker}/fail`, status: 500 },
    { what: "an unknown key", method: "GET", url: "/http/nosuchkey0000", status: 404 },
    { what: "no key at all", method: "GET", url: "/http/", status: 404 },
    { what: "a percent-encoded path to an endpoint", method: "GET", url: plain.replace("/http/", "/%68ttp/"), status: 200 },
    { what: "a body over the limit", method: "POST", url: plain, body: "x".repeat(513 * 1024), status: 413 },
    { what: "a CORS preflight", method: "OPTIONS", url: plain, headers: { origin: "https://a.example", "access-control-request-method": "PUT" }, status: 204 },
  ];

  it("through inject", async () => {
    for (const k of kinds()) {
      const res = await t.app.http.inject({ method: k.method as "GET", url: k.url, payload: k.body, headers: { "content-type": "text/plain", ...k.headers } });
      assert.equal(res.statusCode, k.status, `${k.what}: ${res.body.slice(0, 200)}`);
      assertSandboxed(res.headers, k.what);
    }
  });

  it("on a real port", async () => {
    for (const k of kinds()) {
      const res = await fetch(base + k.url, { method: k.method, body: k.body, headers: { "content-type": "text/plain", ...k.headers } });
      assert.equal(res.status, k.status, k.what);
      assertSandboxed(res.headers, k.what);
      await res.arrayBuffer();
    }
  });

  it("a source can add a CSP (both apply) but not drop ours, nor set the session cookie or clear the site's data", async () => {
    const res = await fetch(`${base}${attacker}/own-headers`);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(res.headers.get("content-security-policy"), "sandbox, sandbox allow-scripts allow-same-origin");
    assert.deepEqual(res.headers.getSetCookie(), []);
    assert.equal(res.headers.get("clear-site-data"), null);
    // its own cookies it may set; the dashboard's, also as a nameless one (sent back as its bare value), not
    for (const [cookie, kept] of [["theirs=1; Path=/http", true], ["=tributary_session=x; Path=/", false], [" tributary_session=x", false], ["Tributary_Session=x", true]] as const) {
      const r = await fetch(`${base}${attacker}/cookie/${encodeURIComponent(cookie)}`);
      assert.deepEqual(r.headers.getSetCookie(), kept ? [cookie.trim()] : [], cookie);
    }
  });

  it("refusals: the early one before routing, and the app's own 429 under a full backlog", async () => {
    const state = { full: true, refusal: "too much waits already" };
    const server: Server = serverWithFirstLook(resolveConfig({}).httpLimits, refuseEarly(state))((_req, res) => void res.end("routed"));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/http/abc`, { method: "POST", body: "{}" });
      assert.equal(res.status, 429);
      assertSandboxed(res.headers, "the early refusal");
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
    const busy = await startApp({ TRIBUTARY_MAX_BACKLOG: "1", TRIBUTARY_OVERLOAD_HOLD_MS: "0" });
    try {
      const path = endpointPath(await createSource(busy, SLOW));
      const busyBase = await listenLocally(busy);
      const refused = await waitFor(async () => {
        const r = await fetch(busyBase + path, { method: "POST", body: "{}" });
        await r.arrayBuffer();
        return r.status === 429 ? r : undefined;
      }, 20_000, "a 429 on a real port");
      assertSandboxed(refused.headers, "a 429 on a real port");
      const injected = await waitFor(async () => {
        const r = await busy.app.http.inject({ method: "POST", url: path, payload: "{}" });
        return r.statusCode === 429 ? r : undefined;
      }, 20_000, "a 429 through inject");
      assertSandboxed(injected.headers, "a 429 through inject");
    } finally {
      await busy.close();
    }
  });
});

describe("(b) a tenant's page next to a signed-in admin, in Chromium", { skip: noBrowser }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  before(async () => {
    t = await startApp();
    origin = await listenLocally(t);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
    context = await browser.newContext();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("the page's script doesn't run; a script that did would get no key, no cookie and no answer from /v1", async () => {
    const tenant = await t.newUser();
    const source = await createSource(t, ATTACKER, {}, tenant.key);
    const dashboard = await context.newPage();
    await dashboard.goto(origin + "/");
    await dashboard.getByLabel("API key").fill(t.adminKey);
    await dashboard.getByRole("button", { name: "Sign in" }).click();
    await dashboard.getByRole("heading", { name: "Sources", exact: true }).waitFor();
    const session = (await context.cookies(origin)).find((c) => c.name === "tributary_session");
    assert.ok(session?.httpOnly, "signed in with an HttpOnly cookie");
    await context.addCookies([{ name: "other", value: "1", url: origin }]);

    const attack = await context.newPage();
    for (const path of ["", "/own-headers"]) {
      // load: the page's inline script would have set the title by then
      await attack.goto(origin + endpointPath(source) + path, { waitUntil: "load" });
      assert.equal(await attack.title(), "untouched", `${path || "/"}: the sandboxed page ran its script`);
      // the same probe, run from outside the page: what a script would get if one ran
      const got = (await attack.evaluate(PROBE)) as Record<string, string>;
      const all = JSON.stringify(got);
      assert.ok(!all.includes(t.adminKey) && !all.includes(session.value), `${path || "/"}: the probe got a credential: ${all}`);
      assert.match(got.storage, /^threw SecurityError/, all);
      assert.match(got.cookie, /^threw SecurityError/, all);
      for (const name of ["plain", "dashboard", "session"]) assert.ok(!got[name].startsWith("200"), `${name}: ${got[name]}`);
    }
    // the admin is still signed in, with the same cookie (a source can't toss its own in)
    assert.equal((await context.cookies(origin)).find((c) => c.name === "tributary_session")?.value, session.value);
    await dashboard.reload();
    await dashboard.getByTestId("whoami").getByText("admin").waitFor();
    // the browser sent its cookies along to the endpoint; the source got the other one only
    const events = await waitEvents(t, source.id, 2, "", 10_000, tenant.key);
    for (const e of events) assert.equal(e.event.cookie, "other=1", JSON.stringify(e.event));
  });
});

describe("(c) the session cookie", () => {
  let t: TestApp;
  let base: string;
  const signIn = async (key: string, headers: Record<string, string> = DASHBOARD) =>
    t.app.http.inject({ method: "POST", url: "/dashboard/session", payload: { key }, headers });
  const asSession = (cookie: string, extra: Record<string, string> = DASHBOARD) => ({ key: null, headers: { cookie, ...extra } });
  before(async () => {
    t = await startApp({ TRIBUTARY_SECRET_KEY: SECRET });
    base = await listenLocally(t);
  });
  after(() => t.close());

  it("sign-in: only with the dashboard's header and a valid key; an HttpOnly, SameSite=Strict cookie that isn't the key", async () => {
    assert.equal((await signIn(t.adminKey, {})).statusCode, 403);
    assert.equal((await signIn(t.adminKey, { ...DASHBOARD, "sec-fetch-site": "cross-site" })).statusCode, 403);
    assert.equal((await signIn("trb_not_a_key")).statusCode, 401);
    const res = await signIn(t.adminKey);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.user.username, "admin");
    const set = String(res.headers["set-cookie"]);
    assert.match(set, /^tributary_session=[\w-]+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.ok(!set.includes(t.adminKey) && !set.includes("Secure"), set);
    const https = await signIn(t.adminKey, { ...DASHBOARD, "x-forwarded-proto": "https" });
    assert.match(String(https.headers["set-cookie"]), /; Secure/);
    const cookie = cookieOf(res.headers["set-cookie"]);
    const who = await t.app.http.inject({ method: "GET", url: "/dashboard/session", headers: { cookie, ...DASHBOARD } });
    assert.equal(who.json().data.signed_in, true);
    const nobody = await t.app.http.inject({ method: "GET", url: "/dashboard/session", headers: DASHBOARD });
    assert.deepEqual(nobody.json().data, { signed_in: false });
  });

  it("the API takes the cookie only with the dashboard's header, from this origin, and never shows a key for it", async () => {
    const cookie = cookieOf((await signIn(t.adminKey)).headers["set-cookie"]);
    const me = await t.request("GET", "/v1/users/me", asSession(cookie));
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.data.api_key, "");
    const body = { component_code: HTTP_COMPONENT };
    assert.equal((await t.request("POST", "/v1/sources", { ...asSession(cookie, {}), body })).status, 401);
    assert.equal((await t.request("POST", "/v1/sources", { ...asSession(cookie, { ...DASHBOARD, "sec-fetch-site": "cross-site" }), body })).status, 401);
    assert.equal((await t.request("POST", "/v1/sources", { ...asSession(cookie), body })).status, 200);
    // a Bearer header, when there is one, is what counts
    assert.equal((await t.request("GET", "/v1/users/me", { key: "trb_wrong", headers: { cookie, ...DASHBOARD } })).status, 401);
    // the live streams: the same rule (the dashboard's EventSource sends the header)
    const src = await createSource(t, HTTP_COMPONENT);
    for (const [headers, status] of [[{ cookie, ...DASHBOARD }, 200], [{ cookie }, 401]] as const) {
      const ac = new AbortController();
      const res = await fetch(`${base}/sources/${src.id}/sse`, { headers, signal: ac.signal });
      assert.equal(res.status, status);
      ac.abort();
    }
  });

  it("a forged, tampered, expired or foreign token is a 401", async () => {
    const cookie = cookieOf((await signIn(t.adminKey)).headers["set-cookie"]);
    const token = cookie.slice("tributary_session=".length);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const sealed = (secret: string, ms: number) => new DashboardSessions(Buffer.from(secret, "hex"), t.app.store.users).open(t.adminKey, ms).token;
    const bad = {
      random: randomBytes(90).toString("base64url"),
      "the key itself": t.adminKey,
      "tampered nonce": flip(token, 3),
      "tampered payload": flip(token, token.length - 5),
      "cut short": token.slice(0, 50),
      expired: sealed(SECRET, Date.now() - 31 * 24 * 3600 * 1000),
      "another service's": sealed(randomBytes(32).toString("hex"), Date.now()),
    };
    assert.equal((await t.request("GET", "/v1/users/me", asSession(`tributary_session=${sealed(SECRET, Date.now())}`))).status, 200);
    for (const [what, value] of Object.entries(bad)) {
      const res = await t.request("GET", "/v1/users/me", asSession(`tributary_session=${value}`));
      assert.equal(res.status, 401, `${what}: ${res.text}`);
      assert.equal(res.body.error.code, "unauthorized");
    }
  });

  it("another user's session sees only their own; a rotated key or a deleted user ends the session", async () => {
    const alice = await t.newUser();
    const bob = await t.newUser();
    const theirs = await createSource(t, HTTP_COMPONENT, {}, alice.key);
    const bobs = cookieOf((await signIn(bob.key)).headers["set-cookie"]);
    assert.equal((await t.request("GET", "/v1/users/me", asSession(bobs))).body.data.id, bob.id);
    assert.equal((await t.request("GET", `/v1/sources/${theirs.id}`, asSession(bobs))).status, 404);
    assert.equal((await t.request("DELETE", `/v1/sources/${theirs.id}`, asSession(bobs))).status, 404);
    assert.equal((await eventsOf(t, theirs.id, "", alice.key)).length, 0);
    const alices = cookieOf((await signIn(alice.key)).headers["set-cookie"]);
    assert.equal((await t.request("GET", `/v1/sources/${theirs.id}`, asSession(alices))).status, 200);
    assert.equal((await t.request("POST", "/v1/users/me/api_key", { key: alice.key })).status, 200);
    const ended = await t.request("GET", "/v1/users/me", asSession(alices));
    assert.equal(ended.status, 401);
    assert.match(ended.body.error.message, /sign in again/);
    assert.equal((await t.request("DELETE", `/v1/users/${bob.id}`)).status, 200);
    assert.equal((await t.request("GET", "/v1/users/me", asSession(bobs))).status, 401);
  });

  it("sign-out clears the cookie; an endpoint never sees it", async () => {
    const out = await t.app.http.inject({ method: "DELETE", url: "/dashboard/session", headers: DASHBOARD });
    assert.equal(out.statusCode, 200);
    assert.match(String(out.headers["set-cookie"]), /^tributary_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/);
    const src = await createSource(t, ATTACKER);
    for (const [sent, seen] of [["a=1; tributary_session=xyz; b=2", "a=1; b=2"], ["tributary_session=xyz", null]] as const) {
      await t.app.http.inject({ method: "GET", url: endpointPath(src), headers: { cookie: sent } });
      const [latest] = await waitFor(async () => {
        const events = await eventsOf(t, src.id);
        return events.length > 0 && events[0].event.cookie === seen ? events : undefined;
      }, 10_000, `the source's event with cookie ${seen}`);
      assert.equal(latest.event.cookie, seen);
    }
  });

  it("a cross-origin page can't send the dashboard's header: CORS never allows it, even with any origin", async () => {
    const open = await startApp({ TRIBUTARY_CORS_ORIGINS: "*" });
    try {
      const pre = await open.request("OPTIONS", "/v1/users/me", {
        key: null,
        headers: { origin: "https://evil.example", "access-control-request-method": "GET", "access-control-request-headers": "x-tributary-dashboard" },
      });
      assert.equal(pre.status, 204);
      assert.ok(!String(pre.headers["access-control-allow-headers"]).toLowerCase().includes("x-tributary-dashboard"));
      assert.equal(pre.headers["access-control-allow-credentials"], undefined);
    } finally {
      await open.close();
    }
  });

  it("with the dashboard off there is no session to sign in to", async () => {
    const off = await startApp({ TRIBUTARY_DASHBOARD: "off" });
    try {
      const res = await off.app.http.inject({ method: "POST", url: "/dashboard/session", payload: { key: off.adminKey }, headers: DASHBOARD });
      assert.equal(res.statusCode, 404);
    } finally {
      await off.close();
    }
  });
});
