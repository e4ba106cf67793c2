import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { rawRequest, type RawResult } from "../fuzz/raw-http.ts";
import {
  assertErrorEnvelope, createSource, detailFields, endpointPath, eventsOf, startApp, waitEvents, HTTP_COMPONENT, type Reply, type TestApp,
} from "./helpers.ts";

// The HTTP edge under hostile input: what arrives too deep, too wide or malformed is refused with
// the one envelope (docs/api.md, "Errors") before anything walks it, and nothing a client sends makes a 5xx.

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
const nestedObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

const CUSTOM = `
export default {
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) { this.http.respond({ status: 200, body: { got: typeof event.body } }); },
};`;

const SLOW_CHILD = JSON.stringify({ name: "x", code: "export default { async run() {} }" });

let t: TestApp;
let port: number;
before(async () => {
  t = await startApp();
  await t.app.http.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.http.server.address() as AddressInfo).port;
});
after(() => t.close());

/** `raw` as a reply of the helpers' shape, for assertErrorEnvelope */
function asReply(r: RawResult): Reply {
  assert.ok(r.reply, `no reply (${r.failure}): ${r.received.toString("latin1").slice(0, 300)}`);
  const text = r.reply.body.toString("utf8");
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: r.reply.status, headers: r.reply.headers, body, text };
}

const send = (request: string | Buffer, opts: { head?: boolean } = {}) =>
  rawRequest(request, { host: "127.0.0.1", port, timeoutMs: 10_000, ...opts });

describe("nesting", () => {
  it("an API body nested past 256 levels is 400 invalid_request; 256 levels still parse", async () => {
    const deep = await t.request("POST", "/v1/sources/", { raw: `{"configured_props": {"x": ${nested(5000)}}}`, headers: { "content-type": "application/json" } });
    assertErrorEnvelope(deep, 400, "invalid_request");
    assert.deepEqual(detailFields(deep), ["body"]);
    const src = await createSource(t, HTTP_COMPONENT);
    const run = await t.request("POST", `/v1/sources/${src.id}/run`, { raw: `{"event": ${nestedObject(300)}}`, headers: { "content-type": "application/json" } });
    assertErrorEnvelope(run, 400, "invalid_request");
    const ok = await t.request("POST", `/v1/sources/${src.id}/run`, { raw: `{"event": ${nestedObject(200)}}`, headers: { "content-type": "application/json" } });
    assert.equal(ok.status, 202, ok.text);
  });

  it("an HTTP source's JSON body nested past 255 levels (256 in its event) is 400 at its endpoint, customResponse or not", async () => {
    const custom = await createSource(t, CUSTOM);
    const plain = await createSource(t, HTTP_COMPONENT);
    for (const src of [custom, plain]) {
      for (const type of ["application/json", "application/vnd.api+json; charset=utf-8", "x y+json"]) {
        const res = await t.request("POST", endpointPath(src), { key: null, raw: nested(5000), headers: { "content-type": type } });
        assertErrorEnvelope(res, 400, "invalid_request");
      }
      // the same text as plain text is just text: the source gets it as a string
      const text = await t.request("POST", endpointPath(src), { key: null, raw: nested(5000), headers: { "content-type": "text/plain" } });
      assert.equal(text.status, 200, text.text);
    }
    // an object of 20,000 members is refused the same way; as text it is just text
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [i.toString(36), 1])));
    assertErrorEnvelope(await t.request("POST", endpointPath(plain), { key: null, raw: wide, headers: { "content-type": "application/json" } }), 400, "invalid_request");
    assert.equal((await t.request("POST", endpointPath(plain), { key: null, raw: wide, headers: { "content-type": "text/plain" } })).status, 200);
    const shallow = await t.request("POST", endpointPath(custom), { key: null, raw: nested(100), headers: { "content-type": "application/json" } });
    assert.equal(shallow.status, 200, shallow.text);
    assert.deepEqual(shallow.body, { got: "object" });
    // the body is event.body: the deepest one taken still makes an event the source can emit whole
    const edge = await createSource(t, HTTP_COMPONENT);
    assertErrorEnvelope(await t.request("POST", endpointPath(edge), { key: null, raw: nested(256), headers: { "content-type": "application/json" } }), 400, "invalid_request");
    assert.equal((await t.request("POST", endpointPath(edge), { key: null, raw: nested(255), headers: { "content-type": "application/json" } })).status, 200);
    const [emitted] = await waitEvents(t, edge.id, 1);
    assert.equal(emitted.event.bodyRaw, nested(255));
    assert.deepEqual(await eventsOf(t, edge.id, "$errors"), []);
  });

  it("a workflow's http trigger refuses the same bodies", async () => {
    const wf = await t.request("POST", "/v1/workflows", {
      body: { name: "deep", trigger: { type: "http" }, steps: [JSON.parse(SLOW_CHILD)] },
    });
    assert.equal(wf.status, 200, wf.text);
    const path = new URL(wf.body.data.trigger.endpoint_url).pathname;
    const res = await t.request("POST", path, { key: null, raw: nestedObject(3000), headers: { "content-type": "application/json" } });
    assertErrorEnvelope(res, 400, "invalid_request");
  });
});

describe("cheap requests that would cost a lot", () => {
  it("100,000 unknown configured_props keys are refused with a short reply", async () => {
    const props: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) props[i.toString(36)] = 1; // ~850 KB, under the 1 MiB limit
    const res = await t.request("POST", "/v1/sources/", { body: { component_code: HTTP_COMPONENT, configured_props: props } });
    assertErrorEnvelope(res, 400, "invalid_request");
    assert.ok(res.text.length < 4096, `the reply is ${res.text.length} bytes`);
    assert.deepEqual(Object.keys(res.body), ["error"]);
  });

  it("validation details list 20 problems and count the rest", async () => {
    const props: Record<string, number> = {};
    for (let i = 0; i < 500; i++) props[`k${i}`] = 1;
    const res = await t.request("POST", "/v1/sources/", { body: { component_code: HTTP_COMPONENT, configured_props: props } });
    assertErrorEnvelope(res, 400, "invalid_request");
    const details = res.body.error.details;
    assert.equal(details.length, 21);
    assert.equal(details[0].field, "configured_props.k0");
    assert.deepEqual(details[20], { field: "(more)", message: "480 more problems not listed" });
  });
});

describe("names that are Object.prototype's", () => {
  it("include/exclude name the resource's own fields only", async () => {
    for (const q of ["include=constructor", "include=toString", "include=id.constructor", "include=__proto__"]) {
      const res = await t.request("GET", `/v1/users/me?${q}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { data: {} }, q);
    }
  });
});

describe("bad items in arrays", () => {
  it("POST and PUT /v1/workflows with null or non-object steps is 400 naming each", async () => {
    const created = await t.request("POST", "/v1/workflows", { body: { name: "w", steps: [JSON.parse(SLOW_CHILD)] } });
    assert.equal(created.status, 200, created.text);
    for (const steps of [[null], [1, "x", [], true], [null, JSON.parse(SLOW_CHILD)]]) {
      const post = await t.request("POST", "/v1/workflows", { body: { name: "w", steps } });
      assertErrorEnvelope(post, 400, "invalid_request");
      assert.ok(detailFields(post).includes("steps[0]"), post.text);
      const put = await t.request("PUT", `/v1/workflows/${created.body.data.id}`, { body: { steps } });
      assertErrorEnvelope(put, 400, "invalid_request");
    }
  });
});

describe("answers Node and the router give before a route runs", () => {
  it("headers over the size limit: 431 headers_too_large in the envelope", async () => {
    const r = await send(`GET /v1/users/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\nConnection: close\r\n\r\n`);
    assertErrorEnvelope(asReply(r), 431, "headers_too_large");
  });

  it("a URL over the size limit: an envelope, not Node's text", async () => {
    const r = await send(`GET /v1/sources/${"a".repeat(40_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assertErrorEnvelope(asReply(r), 431, "headers_too_large");
  });

  it("a path parameter over the router's limit: 414 uri_too_long, the URL not echoed", async () => {
    const long = "z".repeat(500);
    const res = await t.request("GET", `/v1/sources/${long}`);
    assertErrorEnvelope(res, 414, "uri_too_long");
    assert.ok(!res.text.includes(long));
  });

  it("bad percent-encoding: 400 invalid_request, the URL not echoed", async () => {
    for (const path of ["/v1/sources/%zz", "/v1/sources/%E0%A4%A", "/v1/components/%"]) {
      const res = await t.request("GET", path);
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(!res.text.includes("%"), res.text);
    }
  });

  it("bytes that aren't HTTP: 400 invalid_request in the envelope", async () => {
    for (const request of [
      "GET /v1/users/me HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
      "G@T / HTTP/1.1\r\nHost: x\r\n\r\n",
      "POST /v1/sources/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
      "POST /v1/sources/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "\x00\x01\x02 garbage\r\n\r\n",
    ]) {
      assertErrorEnvelope(asReply(await send(request)), 400, "invalid_request");
    }
  });

  it("a HEAD that fails before routing gets no body", async () => {
    const r = await send(`HEAD /v1/users/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`, { head: true });
    assert.equal(r.reply?.status, 431, r.received.toString("latin1").slice(0, 200));
    assert.equal(r.reply.extra.length, 0, `a HEAD reply carried a body: ${r.received.toString("latin1").slice(0, 300)}`);
    // a HEAD whose body never comes (the client hangs up): a 400 if that came first, else the
    // endpoint's answer; no body either way
    const src = await createSource(t, HTTP_COMPONENT);
    const cut = await rawRequest(`HEAD ${endpointPath(src)} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab`, {
      host: "127.0.0.1",
      port,
      timeoutMs: 10_000,
      head: true,
      endAfterWrite: true,
    });
    assert.ok(cut.reply?.status === 400 || cut.reply?.status === 200, cut.received.toString("latin1"));
    assert.equal(cut.reply.extra.length, 0, `a HEAD reply carried a body: ${cut.received.toString("latin1")}`);
  });

  it("an Expect other than 100-continue: 417 in the envelope; CONNECT: 404 in the envelope", async () => {
    const expect = await send("GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n");
    assertErrorEnvelope(asReply(expect), 417, "expectation_failed");
    const connect = await send("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n");
    assertErrorEnvelope(asReply(connect), 404, "not_found");
  });

  it("an HTTP/1.1 request without Host: 400 in the envelope", async () => {
    const r = await send("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    assertErrorEnvelope(asReply(r), 400, "invalid_request");
  });

  it("garbage after a request that was answered gets no second reply on the same connection", async () => {
    // the first request is answered (401, its body never read); the bytes after it are not HTTP
    const r = await send("POST /v1/components HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n\u0000\u0001garbage\r\n\r\n");
    assertErrorEnvelope(asReply(r), 401, "unauthorized");
    assert.equal(r.reply?.extra.length, 0, r.received.toString("latin1"));
    const early = await rawRequest(`POST /v1/components HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, {
      host: "127.0.0.1",
      port,
      timeoutMs: 10_000,
      endAfterWrite: true,
    });
    // answered as unauthorized, or as incomplete if the hang-up came first: one reply either way
    assert.ok(early.reply?.status === 401 || early.reply?.status === 400, early.received.toString("latin1"));
    assert.equal(early.reply.extra.length, 0, early.received.toString("latin1"));
  });

  it("the service still answers afterwards", async () => {
    const res = await t.request("GET", "/healthz", { key: null });
    assert.equal(res.status, 200);
  });
});

describe("HTTP sources and SSE at the edge", () => {
  it("an endpoint takes a request whose Content-Type isn't a media type, and the source sees it as sent", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    for (const type of ["foo", "", "application/json, text/plain", ";"]) {
      const res = await t.request("POST", endpointPath(src), { key: null, raw: "{}", headers: { "content-type": type } });
      assert.equal(res.status, 200, `${JSON.stringify(type)}: ${res.text}`);
    }
    const events = await waitEvents(t, src.id, 4);
    assert.deepEqual(events.map((e) => e.event.headers["content-type"]).sort(), ["", ";", "application/json, text/plain", "foo"]);
    assert.deepEqual(events.map((e) => e.event.bodyRaw), ["{}", "{}", "{}", "{}"]);
  });

  it("HEAD on the SSE route answers the stream's headers at once and no body", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const r = await send(`HEAD /sources/${src.id}/sse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminKey}\r\nConnection: close\r\n\r\n`, { head: true });
    assert.equal(r.reply?.status, 200, `${r.failure} ${r.received.toString("latin1")}`);
    assert.match(r.reply.headers["content-type"], /^text\/event-stream/);
    assert.equal(r.reply.extra.length, 0);
  });
});
