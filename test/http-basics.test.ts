import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../src/config.ts";
import { buildApp, type App } from "../src/app.ts";
import { startApp, assertErrorEnvelope, HTTP_COMPONENT, TIMER_COMPONENT, type TestApp } from "./helpers.ts";

let t: TestApp;
before(async () => {
  t = await startApp();
  // A route that fails the way a store fault would, to see what a 5xx shows the client. The API
  // offers no natural way to make the service fail, so this is the one seam the test adds.
  t.app.http.get("/__test/boom", async () => {
    const err = new Error('SQLITE_ERROR: no such column: api_key_hash in "SELECT * FROM users"');
    err.stack = `${err.message}\n    at secretFunction (/work/main/src/store/queries/users.ts:42:7)`;
    throw err;
  });
});
after(() => t.close());

test("GET /healthz answers 200 {ok:true} without auth", async () => {
  const res = await t.request("GET", "/healthz", { key: null });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { ok: true });
  assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/);
});

test("an unknown route is 404 with the error envelope", async () => {
  for (const url of ["/v1/nope", "/v1/sources/dc_x/nope/deeper", "/nope"]) {
    const res = await t.request("GET", url);
    assertErrorEnvelope(res, 404, "not_found");
    assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/);
  }
  assertErrorEnvelope(await t.request("PATCH", "/v1/users/me", { body: {} }), 404, "not_found");
});

test("every /v1 endpoint needs the key", async () => {
  const calls: [string, string][] = [
    ["GET", "/v1/users/me"],
    ["GET", "/v1/users/me/subscriptions"],
    ["GET", "/v1/users/me/sources/"],
    ["POST", "/v1/sources/"],
    ["PUT", "/v1/sources/dc_abcdefghijkl"],
    ["DELETE", "/v1/sources/dc_abcdefghijkl"],
    ["POST", "/v1/components"],
    ["GET", "/v1/components/test-timer"],
    ["GET", "/v1/components/registry/http-new-requests"],
    ["POST", "/v1/subscriptions?emitter_id=dc_*&listener_id=dc_abcdefghijkl"],
    ["DELETE", "/v1/subscriptions?emitter_id=dc_*&listener_id=dc_abcdefghijkl"],
    ["POST", "/v1/auto_subscriptions?event_name=default&listener_id=dc_abcdefghijkl"],
    ["POST", "/v1/users/me/api_key"],
    ["GET", "/v1/users"],
  ];
  for (const [method, url] of calls) {
    const body = method === "POST" || method === "PUT" ? { component_code: TIMER_COMPONENT } : undefined;
    const res = await t.request(method, url, { key: null, body });
    assertErrorEnvelope(res, 401, "unauthorized");
  }
});

test("GET /v1/openapi.json is an OpenAPI 3 document listing every endpoint and the ErrorEnvelope", async () => {
  const res = await t.request("GET", "/v1/openapi.json");
  assert.equal(res.status, 200, res.text);
  const doc = res.body;
  assert.match(String(doc.openapi), /^3\./);
  assert.equal(typeof doc.info?.title, "string");
  assert.equal(typeof doc.info?.version, "string");
  const paths = Object.keys(doc.paths ?? {});
  const expected: Record<string, string[]> = {
    "/v1/users/me": ["get"],
    "/v1/users/me/api_key": ["post"],
    "/v1/users": ["get", "post"],
    "/v1/users/{id}": ["delete"],
    "/v1/users/me/sources/": ["get"],
    "/v1/users/me/subscriptions": ["get"],
    "/v1/sources/": ["post"],
    "/v1/sources/{id}": ["put", "delete"],
    "/v1/components": ["post"],
    "/v1/components/registry": ["post"],
    "/v1/components/{keyOrId}": ["get"],
    "/v1/components/registry/{key}": ["get"],
    "/v1/subscriptions": ["post", "delete"],
    "/v1/auto_subscriptions": ["post"],
  };
  for (const [path, methods] of Object.entries(expected)) {
    assert.ok(paths.includes(path), `${path} is missing from ${JSON.stringify(paths)}`);
    for (const m of methods) assert.ok(doc.paths[path][m], `${m.toUpperCase()} ${path} is missing`);
  }
  const schemas = doc.components?.schemas ?? {};
  const envelope = Object.entries(schemas).find(([name, s]) => name === "ErrorEnvelope" || (s as { title?: string }).title === "ErrorEnvelope");
  assert.ok(envelope, `no ErrorEnvelope schema in ${JSON.stringify(Object.keys(schemas))}`);
  const shape = envelope[1] as any;
  assert.deepEqual(Object.keys(shape.properties), ["error"]);
  assert.ok(shape.properties.error.properties.code && shape.properties.error.properties.message);
});

test("include/exclude apply to every endpoint's data: user, component, subscriptions", async () => {
  const user = await t.newUser();
  const me = await t.request("GET", "/v1/users/me?include=id,username,api_key", { key: user.key });
  assert.deepEqual(Object.keys(me.body.data).sort(), ["api_key", "id", "username"]);
  const noKey = await t.request("GET", "/v1/users/me?exclude=api_key", { key: user.key });
  assert.equal(noKey.body.data.api_key, undefined);
  assert.equal(noKey.body.data.id, user.id);

  const comp = await t.request("GET", "/v1/components/registry/http-new-requests?exclude=code,configurable_props", { key: user.key });
  assert.equal(comp.status, 200, comp.text);
  assert.equal(comp.body.data.code, undefined);
  assert.equal(comp.body.data.configurable_props, undefined);
  assert.equal(typeof comp.body.data.code_hash, "string");
  const saved = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: TIMER_COMPONENT, include: "id" } });
  assert.equal(saved.status, 200, saved.text);
  assert.deepEqual(Object.keys(saved.body.data), ["id"]);

  const src = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_code: HTTP_COMPONENT } });
  const dst = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_code: HTTP_COMPONENT } });
  const url = `/v1/subscriptions?emitter_id=${src.body.data.id}&listener_id=${dst.body.data.id}`;
  const sub = await t.request("POST", `${url}&include=id`, { key: user.key });
  assert.equal(sub.status, 200, sub.text);
  assert.deepEqual(Object.keys(sub.body.data), ["id"]);
  const list = await t.request("GET", "/v1/users/me/subscriptions?exclude=id,event_name", { key: user.key });
  assert.deepEqual(list.body.data, [{ emitter_id: src.body.data.id, listener_id: dst.body.data.id }]);
});

test("a 5xx answers the error envelope and leaks no stack, SQL or file path", async () => {
  const res = await t.request("GET", "/__test/boom");
  assert.ok(res.status >= 500 && res.status < 600, `${res.status} ${res.text}`);
  assert.equal(typeof res.body?.error?.code, "string", res.text);
  assert.equal(typeof res.body?.error?.message, "string", res.text);
  assert.deepEqual(Object.keys(res.body), ["error"]);
  for (const leak of ["SQLITE", "SELECT", "api_key_hash", "secretFunction", "/work/main", ".ts:", "    at "]) {
    assert.ok(!res.text.includes(leak), `response leaks ${JSON.stringify(leak)}: ${res.text}`);
  }
});

test("after a restart on the same data directory, users, keys, components and sources are still there", async () => {
  const first = await startApp();
  const dataDir = first.dataDir;
  let second: App | undefined;
  try {
    const user = await first.newUser();
    const created = await first.request("POST", "/v1/sources/", {
      key: user.key,
      body: { component_code: HTTP_COMPONENT, name: "Kept Across Restarts" },
    });
    assert.equal(created.status, 200, created.text);
    const source = created.body.data;
    const rotated = await first.request("POST", "/v1/users/me/api_key");
    assert.equal(rotated.status, 200, rotated.text);
    const adminKey = rotated.body.data.api_key;
    await first.app.close();

    // no TRIBUTARY_ADMIN_KEY this time: the keys must come from the store
    second = await buildApp(resolveConfig({ TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_PUBLIC_URL: "http://tributary.test", ...first.storeEnv }), { logger: false });
    assert.equal(second.createdAdminKey, undefined, "a non-empty store must not get a new admin");
    const call = async (method: string, url: string, key: string) => {
      const res = await second!.http.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${key}` } });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, text: res.body };
    };

    const me = await call("GET", "/v1/users/me", adminKey);
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.data.admin, true);
    const users = await call("GET", "/v1/users?limit=100", adminKey);
    assert.ok(users.body.data.some((u: { id: string }) => u.id === user.id), "the user survived");

    const list = await call("GET", "/v1/users/me/sources/", user.key);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.page_info.total_count, 1);
    const { user_id: _omitted, ...listed } = source;
    assert.deepEqual(list.body.data[0], listed);

    const component = await call("GET", `/v1/components/${source.component_id}`, user.key);
    assert.equal(component.status, 200, component.text);
    assert.equal(component.body.data.code, HTTP_COMPONENT);
  } finally {
    if (second) await second.close();
    await first.close(); // closing twice is harmless; this also drops a PostgreSQL test database
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the spec's slashed paths also answer without the trailing slash", async () => {
  const t = await startApp();
  try {
    const slashed = await t.request("GET", "/v1/users/me/sources/");
    const bare = await t.request("GET", "/v1/users/me/sources");
    assert.equal(slashed.status, 200);
    assert.equal(bare.status, 200);
    assert.deepEqual(bare.body, slashed.body);
  } finally {
    await t.close();
  }
});
