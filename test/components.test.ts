import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startApp,
  assertErrorEnvelope,
  assertRecentSeconds,
  fixture,
  serveFiles,
  sha256Hex,
  TIMER_COMPONENT,
  type FileServer,
  type TestApp,
} from "./helpers.ts";

const REMOTE_CODE = `
export default {
  key: "test-remote",
  name: "Remote Component",
  version: "0.0.7",
  props: { note: { type: "string", optional: true } },
  run() {},
};
`;

let t: TestApp;
/** started with TRIBUTARY_FETCH_ALLOW naming the local file server */
let allowed: TestApp;
let files: FileServer;

before(async () => {
  files = await serveFiles({ "/remote.js": REMOTE_CODE });
  t = await startApp();
  allowed = await startApp({ TRIBUTARY_FETCH_ALLOW: files.hostPort });
});
after(async () => {
  await t.close();
  await allowed.close();
  await files.close();
});

const SHIPPED = ["rss-new-item-in-feed", "http-new-requests", "schedule-custom-interval", "emit-on-subscription"];

test("POST /components returns the Component: id, code, code_hash, name, version, timestamps", async () => {
  const code = fixture("all-props.js");
  const res = await t.request("POST", "/v1/components", { body: { component_code: code } });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/);
  const c = res.body.data;
  assert.match(c.id, /^sc_[A-Za-z0-9_-]{8,22}$/);
  assert.equal(c.code, code);
  assert.equal(c.code_hash, sha256Hex(code));
  assert.match(c.code_hash, /^[0-9a-f]{64}$/);
  assert.equal(c.name, "All Props");
  assert.equal(c.version, "1.2.3");
  assertRecentSeconds(c.created_at, "created_at");
  assertRecentSeconds(c.updated_at, "updated_at");
});

test("configurable_props lists every prop in declaration order with only the fields that are set", async () => {
  const res = await t.request("POST", "/v1/components", { body: { component_code: fixture("all-props.js") } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.configurable_props, [
    { name: "zeta", type: "string", label: "Zeta", description: "declared first" },
    { name: "alpha", type: "integer", default: 5 },
    { name: "plain", type: "boolean" },
    { name: "feed", type: "app", app: "rss" },
    { name: "http", type: "$.interface.http" },
    { name: "timer", type: "$.interface.timer", default: { intervalSeconds: 120 } },
    { name: "db", type: "$.service.db" },
  ]);
});

test("saving identical code twice returns the same sc_ id; different code a different one", async () => {
  const user = await t.newUser();
  const a = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: TIMER_COMPONENT } });
  const b = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: TIMER_COMPONENT } });
  assert.equal(a.status, 200, a.text);
  assert.equal(b.status, 200, b.text);
  assert.equal(b.body.data.id, a.body.data.id);
  const changed = TIMER_COMPONENT.replace('version: "0.1.0"', 'version: "0.1.1"');
  const c = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: changed } });
  assert.equal(c.status, 200, c.text);
  assert.notEqual(c.body.data.id, a.body.data.id);
  assert.equal(c.body.data.version, "0.1.1");
});

test("GET /components/{id} and /components/{key} return the caller's component; the key gives the newest", async () => {
  const user = await t.newUser();
  const v1 = TIMER_COMPONENT.replace("test-timer", "test-keyed");
  const v2 = v1.replace('version: "0.1.0"', 'version: "0.2.0"');
  const first = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: v1 } });
  const second = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: v2 } });
  assert.equal(first.status, 200, first.text);
  assert.equal(second.status, 200, second.text);

  const byId = await t.request("GET", `/v1/components/${first.body.data.id}`, { key: user.key });
  assert.equal(byId.status, 200, byId.text);
  assert.deepEqual(byId.body.data, first.body.data);

  const byKey = await t.request("GET", "/v1/components/test-keyed", { key: user.key });
  assert.equal(byKey.status, 200, byKey.text);
  assert.equal(byKey.body.data.id, second.body.data.id);
  assert.equal(byKey.body.data.version, "0.2.0");
  assert.equal(byKey.body.data.code, v2);
});

test("another user's component id or key is 404 not_found", async () => {
  const owner = await t.newUser();
  const stranger = await t.newUser();
  const code = TIMER_COMPONENT.replace("test-timer", "test-private");
  const saved = await t.request("POST", "/v1/components", { key: owner.key, body: { component_code: code } });
  assert.equal(saved.status, 200, saved.text);
  const theirs = await t.request("GET", `/v1/components/${saved.body.data.id}`, { key: stranger.key });
  assertErrorEnvelope(theirs, 404, "not_found");
  const nobody = await t.request("GET", "/v1/components/sc_doesnotexist000", { key: stranger.key });
  assert.deepEqual(theirs.body, nobody.body, "another user's id must look exactly like an unknown one");
  assertErrorEnvelope(await t.request("GET", "/v1/components/test-private", { key: stranger.key }), 404, "not_found");
  assertErrorEnvelope(await t.request("GET", "/v1/components/sc_doesnotexist000", { key: owner.key }), 404, "not_found");
  assertErrorEnvelope(await t.request("GET", "/v1/components/no-such-key", { key: owner.key }), 404, "not_found");
});

test("the four shipped components are readable in the registry by any user", async () => {
  const user = await t.newUser();
  for (const key of SHIPPED) {
    const res = await t.request("GET", `/v1/components/registry/${key}`, { key: user.key });
    assert.equal(res.status, 200, `${key}: ${res.text}`);
    const c = res.body.data;
    assert.match(c.id, /^sc_/);
    assert.ok(c.code.includes(key), `${key}: its code is returned`);
    assert.equal(c.code_hash, sha256Hex(c.code));
    assert.ok(c.name.length > 0);
    assert.equal(typeof c.version, "string");
    assert.ok(Array.isArray(c.configurable_props));
  }
});

test("shipped components declare the props the decisions list", async () => {
  const get = async (key: string) => (await t.request("GET", `/v1/components/registry/${key}`)).body.data.configurable_props;
  const rss = await get("rss-new-item-in-feed");
  assert.deepEqual(
    rss.map((p: { name: string; type: string }) => [p.name, p.type]),
    [
      ["url", "string"],
      ["timer", "$.interface.timer"],
    ],
  );
  assert.deepEqual(rss[1].default, { intervalSeconds: 900 });
  const http = await get("http-new-requests");
  assert.ok(http.some((p: { type: string }) => p.type === "$.interface.http"));
  const schedule = await get("schedule-custom-interval");
  assert.deepEqual(
    schedule.map((p: { type: string }) => p.type),
    ["$.interface.timer"],
  );
  assert.equal(typeof schedule[0].default.intervalSeconds, "number");
  assert.deepEqual(await get("emit-on-subscription"), []);
});

test("an unknown registry key is 404 not_found", async () => {
  assertErrorEnvelope(await t.request("GET", "/v1/components/registry/no-such-component"), 404, "not_found");
});

test("an admin publishes to the registry and everyone can read it; a non-admin gets 403", async () => {
  const code = TIMER_COMPONENT.replace("test-timer", "test-published");
  const user = await t.newUser();
  assertErrorEnvelope(
    await t.request("POST", "/v1/components/registry", { key: user.key, body: { component_code: code } }),
    403,
    "forbidden",
  );
  assertErrorEnvelope(await t.request("GET", "/v1/components/registry/test-published", { key: user.key }), 404, "not_found");

  const pub = await t.request("POST", "/v1/components/registry", { body: { component_code: code } });
  assert.equal(pub.status, 200, pub.text);
  assert.match(pub.body.data.id, /^sc_/);
  assert.equal(pub.body.data.code, code);

  const read = await t.request("GET", "/v1/components/registry/test-published", { key: user.key });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.data.id, pub.body.data.id);
  assert.equal(read.body.data.code, code);
});

test("code with a syntax error is 422 invalid_component saying so", async () => {
  const res = await t.request("POST", "/v1/components", { body: { component_code: "export default { run() { " } });
  assertErrorEnvelope(res, 422, "invalid_component");
  assert.match(res.body.error.message, /syntax/i);
});

test("code without a default export is 422 invalid_component saying so", async () => {
  const res = await t.request("POST", "/v1/components", { body: { component_code: "export const x = { run() {} };" } });
  assertErrorEnvelope(res, 422, "invalid_component");
  assert.match(res.body.error.message, /default export/i);
});

test("importing a package the registry can't give is 422 invalid_component naming it", async () => {
  const code = `import leftPad from "left-pad";\nexport default { name: "pad", props: {}, run() { leftPad("x", 3); } };`;
  const res = await t.request("POST", "/v1/components", { body: { component_code: code } });
  assertErrorEnvelope(res, 422, "invalid_component");
  assert.match(res.body.error.message, /left-pad/);
});

test("neither component_code nor component_url is 400 invalid_request", async () => {
  assertErrorEnvelope(await t.request("POST", "/v1/components", { body: {} }), 400, "invalid_request");
  assertErrorEnvelope(await t.request("POST", "/v1/components", { body: { name: "x" } }), 400, "invalid_request");
});

test("wrong field types are 400 invalid_request", async () => {
  assertErrorEnvelope(await t.request("POST", "/v1/components", { body: { component_code: 42 } }), 400, "invalid_request");
  assertErrorEnvelope(await t.request("POST", "/v1/components", { body: { component_url: 42 } }), 400, "invalid_request");
  assertErrorEnvelope(await t.request("POST", "/v1/components", { body: ["export default {}"] }), 400, "invalid_request");
});

test("component_url on a loopback address is refused (400) unless TRIBUTARY_FETCH_ALLOW names it", async () => {
  const url = `${files.origin}/remote.js`;
  const hits = files.hits.length;
  const refused = await t.request("POST", "/v1/components", { body: { component_url: url } });
  assertErrorEnvelope(refused, 400, "invalid_request");
  assert.equal(files.hits.length, hits, "a refused URL must not be requested at all");

  const ok = await allowed.request("POST", "/v1/components", { body: { component_url: url } });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.code, REMOTE_CODE);
  assert.equal(ok.body.data.code_hash, sha256Hex(REMOTE_CODE));
  assert.equal(ok.body.data.name, "Remote Component");
  assert.equal(ok.body.data.version, "0.0.7");
});

test("a component_url that answers 404 is 400 invalid_request", async () => {
  const res = await allowed.request("POST", "/v1/components", { body: { component_url: `${files.origin}/missing.js` } });
  assertErrorEnvelope(res, 400, "invalid_request");
});

test("with both component_code and component_url, the code is used and the URL is not fetched", async () => {
  const before = files.hits.length;
  const url = `${files.origin}/remote.js`;
  // this app may not fetch loopback URLs, so it could only succeed without fetching
  const res = await t.request("POST", "/v1/components", { body: { component_code: TIMER_COMPONENT, component_url: url } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.code, TIMER_COMPONENT);
  assert.equal(res.body.data.name, "Test Timer");
  assert.equal(files.hits.length, before, "component_url was fetched");
});

test("a body over 1 MiB is 413 payload_too_large", async () => {
  const big = `export default { name: "big", props: {}, run() {} };\n//${"x".repeat(1024 * 1024 + 10)}`;
  assertErrorEnvelope(await t.request("POST", "/v1/components", { body: { component_code: big } }), 413, "payload_too_large");
});

test("POST /components without Content-Type application/json is 415 unsupported_media_type", async () => {
  const res = await t.request("POST", "/v1/components", {
    raw: JSON.stringify({ component_code: TIMER_COMPONENT }),
    headers: { "content-type": "text/plain" },
  });
  assertErrorEnvelope(res, 415, "unsupported_media_type");
  const js = await t.request("POST", "/v1/components", { raw: TIMER_COMPONENT, headers: { "content-type": "application/javascript" } });
  assertErrorEnvelope(js, 415, "unsupported_media_type");
});
