import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { assertErrorEnvelope, createSource, endpointPath, eventsOf, HTTP_COMPONENT, startApp, waitEvents, type TestApp } from "./helpers.ts";

// CORS (TRIBUTARY_CORS_ORIGINS) on the API and the SSE streams, and HTTP source endpoints'
// own answer to preflights: headers asserted on inject and real HTTP (no browser needed).

const ALLOWED = "https://app.example.com";
const OTHER = "https://evil.example.net";

const CUSTOM_OPTIONS = `
export default {
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    this.$emit({ method: event.method });
    this.http.respond({ status: 200, headers: { "access-control-allow-origin": "https://only.example", "x-answered-by": "run" }, body: "" });
  },
};`;

const preflight = (origin: string, method = "POST", headers?: string) => ({
  key: null,
  headers: { origin, "access-control-request-method": method, ...(headers ? { "access-control-request-headers": headers } : {}) },
});

describe("CORS with listed origins", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp({ TRIBUTARY_CORS_ORIGINS: `${ALLOWED}, https://second.example.com` });
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.http.server.address() as { port: number }).port}`;
  });
  after(() => t.close());

  it("an allowed origin gets Access-Control-Allow-Origin (its own) and Vary: Origin, errors too", async () => {
    const ok = await t.request("GET", "/v1/users/me", { headers: { origin: ALLOWED } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.headers["access-control-allow-origin"], ALLOWED);
    assert.match(String(ok.headers.vary), /Origin/);
    const denied = await t.request("GET", "/v1/users/me", { key: null, headers: { origin: ALLOWED } });
    assertErrorEnvelope(denied, 401, "unauthorized");
    assert.equal(denied.headers["access-control-allow-origin"], ALLOWED);
    const missing = await t.request("GET", "/v1/sources/dc_nonexistent00", { headers: { origin: ALLOWED } });
    assertErrorEnvelope(missing, 404, "not_found");
    assert.equal(missing.headers["access-control-allow-origin"], ALLOWED);
    const unrouted = await t.request("GET", "/v1/no/such/route", { headers: { origin: ALLOWED } });
    assertErrorEnvelope(unrouted, 404, "not_found");
    assert.equal(unrouted.headers["access-control-allow-origin"], ALLOWED);
  });

  it("a disallowed origin gets no Access-Control-Allow-Origin (the request itself still works)", async () => {
    const res = await t.request("GET", "/v1/users/me", { headers: { origin: OTHER } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers["access-control-allow-origin"], undefined);
    assert.match(String(res.headers.vary), /Origin/);
    const pre = await t.request("OPTIONS", "/v1/users/me", preflight(OTHER, "GET"));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers["access-control-allow-origin"], undefined);
    assert.equal(pre.headers["access-control-allow-methods"], undefined);
  });

  it("a preflight is 204 without a key, allowing Authorization, Content-Type, Last-Event-ID and GET, POST, PUT, DELETE", async () => {
    for (const url of ["/v1/sources/", "/v1/sources/dc_abcdefghijkl", "/v1/users/me"]) {
      const res = await t.request("OPTIONS", url, preflight("https://second.example.com", "PUT", "authorization, content-type"));
      assert.equal(res.status, 204, `${url}: ${res.text}`);
      assert.equal(res.text, "");
      assert.equal(res.headers["access-control-allow-origin"], "https://second.example.com");
      const headers = String(res.headers["access-control-allow-headers"]).toLowerCase().split(/\s*,\s*/);
      for (const h of ["authorization", "content-type", "last-event-id"]) assert.ok(headers.includes(h), `${h} in ${headers}`);
      const methods = String(res.headers["access-control-allow-methods"]).split(/\s*,\s*/);
      for (const m of ["GET", "POST", "PUT", "DELETE"]) assert.ok(methods.includes(m), `${m} in ${methods}`);
      assert.match(String(res.headers.vary), /Origin/);
    }
  });

  it("the SSE route carries the headers on its live stream (real HTTP) and answers its preflight", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const ac = new AbortController();
    const res = await fetch(`${base}/sources/${src.id}/sse?access_token=${t.adminKey}`, { headers: { origin: ALLOWED }, signal: ac.signal });
    try {
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(res.headers.get("access-control-allow-origin"), ALLOWED);
      assert.match(res.headers.get("vary") ?? "", /Origin/);
    } finally {
      ac.abort();
    }
    const other = await fetch(`${base}/sources/${src.id}/sse`, { headers: { origin: OTHER } });
    assert.equal(other.status, 401);
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    await other.text();
    const pre = await fetch(`${base}/sources/${src.id}/sse`, {
      method: "OPTIONS",
      headers: { origin: ALLOWED, "access-control-request-method": "GET", "access-control-request-headers": "authorization, last-event-id" },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), ALLOWED);
    assert.match(pre.headers.get("access-control-allow-headers") ?? "", /Last-Event-ID/i);
    // a workflow's stream too
    const wfPre = await t.request("OPTIONS", "/workflows/p_abcdefghijkl/sse", preflight(ALLOWED, "GET", "last-event-id"));
    assert.equal(wfPre.status, 204);
    assert.equal(wfPre.headers["access-control-allow-origin"], ALLOWED);
    const wf = await t.request("GET", "/workflows/p_abcdefghijkl/sse", { headers: { origin: ALLOWED } });
    assertErrorEnvelope(wf, 404, "not_found");
    assert.equal(wf.headers["access-control-allow-origin"], ALLOWED);
  });

  it("/healthz and other paths are not given CORS headers", async () => {
    const res = await t.request("GET", "/healthz", { key: null, headers: { origin: ALLOWED } });
    assert.equal(res.status, 200);
    assert.equal(res.headers["access-control-allow-origin"], undefined);
  });

  it("an HTTP source endpoint answers a preflight itself (any origin, what it asked for) and records nothing", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const path = endpointPath(src);
    for (const url of [path, `${path}/sub/path?x=1`]) {
      const res = await t.request("OPTIONS", url, preflight(OTHER, "PUT", "content-type, x-signature"));
      assert.equal(res.status, 204, res.text);
      assert.equal(res.headers["access-control-allow-origin"], OTHER);
      assert.equal(res.headers["access-control-allow-methods"], "PUT");
      assert.equal(res.headers["access-control-allow-headers"], "content-type, x-signature");
    }
    // a plain OPTIONS (no Access-Control-Request-Method) is a request like any other
    const plain = await t.request("OPTIONS", path, { key: null });
    assert.equal(plain.status, 200, plain.text);
    const post = await t.request("POST", path, { key: null, body: { n: 1 }, headers: { origin: OTHER } });
    assert.equal(post.status, 200, post.text);
    assert.equal(post.headers["access-control-allow-origin"], "*");
    const events = await waitEvents(t, src.id, 2);
    await sleep(200);
    const after = await eventsOf(t, src.id);
    assert.equal(after.length, 2, JSON.stringify(after.map((e) => e.event.method)));
    assert.deepEqual(after.map((e) => e.event.method).sort(), ["OPTIONS", "POST"]);
    assert.equal(events.length, 2);
  });

  it("a preflight to an unknown endpoint is the usual 404", async () => {
    const res = await t.request("OPTIONS", "/http/nosuchendpointkey0000", preflight(OTHER));
    assertErrorEnvelope(res, 404, "not_found");
  });

  it("a customResponse source gets the preflight as a request, and its run's answer is the reply", async () => {
    const src = await createSource(t, CUSTOM_OPTIONS);
    const res = await t.request("OPTIONS", endpointPath(src), preflight(OTHER, "DELETE"));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers["x-answered-by"], "run");
    assert.equal(res.headers["access-control-allow-origin"], "https://only.example");
    const events = await waitEvents(t, src.id, 1);
    assert.equal(events[0].event.method, "OPTIONS");
  });
});

describe("CORS with *", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_CORS_ORIGINS: "*" })));
  after(() => t.close());

  it("any origin gets Access-Control-Allow-Origin: *", async () => {
    const res = await t.request("GET", "/v1/users/me", { headers: { origin: OTHER } });
    assert.equal(res.status, 200);
    assert.equal(res.headers["access-control-allow-origin"], "*");
    assert.match(String(res.headers.vary), /Origin/);
    const pre = await t.request("OPTIONS", "/v1/sources/", preflight("http://localhost:5173"));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers["access-control-allow-origin"], "*");
    assert.match(String(pre.headers["access-control-allow-headers"]), /Authorization/);
  });
});

describe("CORS off (the default)", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("the API sends no CORS headers and has no preflight answer, but HTTP endpoints still answer theirs", async () => {
    const res = await t.request("GET", "/v1/users/me", { headers: { origin: ALLOWED } });
    assert.equal(res.status, 200);
    assert.equal(res.headers["access-control-allow-origin"], undefined);
    assertErrorEnvelope(await t.request("OPTIONS", "/v1/users/me", preflight(ALLOWED, "GET")), 404, "not_found");
    const src = await createSource(t, HTTP_COMPONENT);
    const pre = await t.request("OPTIONS", endpointPath(src), preflight(ALLOWED));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers["access-control-allow-origin"], ALLOWED);
    await sleep(300);
    assert.deepEqual(await eventsOf(t, src.id), []);
  });

  it("rejects a malformed TRIBUTARY_CORS_ORIGINS at start", async () => {
    const { resolveConfig } = await import("../src/config.ts");
    assert.throws(() => resolveConfig({ TRIBUTARY_CORS_ORIGINS: "app.example.com" }), /TRIBUTARY_CORS_ORIGINS/);
    assert.deepEqual(resolveConfig({ TRIBUTARY_CORS_ORIGINS: "https://A.example/, *" }).corsOrigins, ["*"]);
    assert.deepEqual(resolveConfig({ TRIBUTARY_CORS_ORIGINS: "https://A.example/" }).corsOrigins, ["https://a.example"]);
  });
});
