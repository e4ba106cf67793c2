import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, assertErrorEnvelope, detailFields, type TestApp } from "./helpers.ts";

// GET /v1/users/me/components and GET /v1/components/registry: paginated, newest first, no code.

const code = (key: string) => `export default { key: "${key}", name: "N ${key}", version: "1.0.${key.length}", props: { note: { type: "string", optional: true } }, run() {} };`;
const SUMMARY_FIELDS = ["code_hash", "configurable_props", "created_at", "description", "id", "key", "name", "type", "updated_at", "version"];

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(async () => {
  await t.close();
});

async function save(key: string, userKey: string, path = "/v1/components") {
  const res = await t.request("POST", path, { key: userKey, body: { component_code: code(key) } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

test("GET /users/me/components: the caller's components, newest first, paginated, without code", async () => {
  const user = await t.newUser();
  const other = await t.newUser();
  const saved = [];
  for (const k of ["list-a", "list-b", "list-c"]) saved.push(await save(k, user.key));
  await save("list-other", other.key);

  const res = await t.request("GET", "/v1/users/me/components", { key: user.key });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.map((c: any) => c.id), saved.map((c) => c.id).reverse());
  assert.equal(res.body.page_info.total_count, 3);
  assert.equal(res.body.page_info.count, 3);
  for (const c of res.body.data) assert.deepEqual(Object.keys(c).sort(), SUMMARY_FIELDS);
  // each item is what GET /components/{id} shows, without code
  const one = await t.request("GET", `/v1/components/${saved[0].id}`, { key: user.key });
  const { code: _code, ...rest } = one.body.data;
  assert.deepEqual(res.body.data[2], rest);

  const first = await t.request("GET", "/v1/users/me/components?limit=2", { key: user.key });
  assert.deepEqual(first.body.data.map((c: any) => c.id), [saved[2].id, saved[1].id]);
  assert.equal(first.body.page_info.total_count, 3);
  assert.equal(first.body.page_info.count, 2);
  const next = await t.request("GET", `/v1/users/me/components?limit=2&after=${first.body.page_info.end_cursor}`, { key: user.key });
  assert.deepEqual(next.body.data.map((c: any) => c.id), [saved[0].id]);
  const back = await t.request("GET", `/v1/users/me/components?limit=2&before=${next.body.page_info.start_cursor}`, { key: user.key });
  assert.deepEqual(back.body.data.map((c: any) => c.id), [saved[2].id, saved[1].id]);

  // a newcomer has none
  const empty = await t.request("GET", "/v1/users/me/components", { key: (await t.newUser()).key });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { page_info: { total_count: 0, count: 0, start_cursor: "", end_cursor: "" }, data: [] });
});

test("GET /components/registry: every registry component, paginated, without code", async () => {
  const user = await t.newUser();
  const shipped = await t.request("GET", "/v1/components/registry?limit=100", { key: user.key });
  assert.equal(shipped.status, 200, shipped.text);
  const before = shipped.body.page_info.total_count;
  assert.ok(before >= 4, shipped.text);
  const added = await save("registry-listed", t.adminKey, "/v1/components/registry");
  const res = await t.request("GET", "/v1/components/registry?limit=1", { key: user.key });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.page_info.total_count, before + 1);
  assert.deepEqual(res.body.data.map((c: any) => c.id), [added.id]);
  assert.deepEqual(Object.keys(res.body.data[0]).sort(), SUMMARY_FIELDS);
  const all = await t.request("GET", "/v1/components/registry?limit=100", { key: user.key });
  assert.equal(all.body.data.length, before + 1);
  for (const c of all.body.data) assert.equal(c.code, undefined);
  // the paths beside it still work
  const byKey = await t.request("GET", "/v1/components/registry/registry-listed", { key: user.key });
  assert.equal(byKey.status, 200, byKey.text);
  assert.equal(byKey.body.data.id, added.id);
  const byId = await t.request("GET", `/v1/components/${added.id}`, { key: user.key });
  assert.equal(byId.status, 200, byId.text);
  // a user's own components are not in the registry list
  const mine = await save("not-in-registry", user.key);
  const again = await t.request("GET", "/v1/components/registry?limit=100", { key: user.key });
  assert.ok(!again.body.data.some((c: any) => c.id === mine.id));
});

test("?type=source|action: only components of that type, paged within them; another type is a 400 naming type", async () => {
  const user = await t.newUser();
  const action = (key: string) => `export default { key: "${key}", name: "${key}", version: "0.0.1", type: "action", props: {}, async run() { return 1; } };`;
  const publish = async (componentCode: string) => {
    const res = await t.request("POST", "/v1/components/registry", { key: t.adminKey, body: { component_code: componentCode } });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const actions = [await publish(action("typed-action-1")), await publish(action("typed-action-2"))];
  const source = await save("typed-source", t.adminKey, "/v1/components/registry");
  const all = await t.request("GET", "/v1/components/registry?limit=100", { key: user.key });

  const onlyActions = await t.request("GET", "/v1/components/registry?type=action&limit=100", { key: user.key });
  assert.equal(onlyActions.status, 200, onlyActions.text);
  assert.ok(onlyActions.body.data.every((c: any) => c.type === "action"), onlyActions.text);
  assert.deepEqual(onlyActions.body.data.slice(0, 2).map((c: any) => c.id), actions.map((c) => c.id).reverse());
  const onlySources = await t.request("GET", "/v1/components/registry?type=source&limit=100", { key: user.key });
  assert.ok(onlySources.body.data.every((c: any) => c.type === "source"), onlySources.text);
  assert.equal(onlySources.body.data[0].id, source.id);
  assert.equal(onlyActions.body.page_info.total_count + onlySources.body.page_info.total_count, all.body.page_info.total_count);

  // the cursor pages within the type: the second action comes after the first, with no source between
  const first = await t.request("GET", "/v1/components/registry?type=action&limit=1", { key: user.key });
  assert.deepEqual(first.body.data.map((c: any) => c.id), [actions[1].id]);
  const next = await t.request("GET", `/v1/components/registry?type=action&limit=1&after=${first.body.page_info.end_cursor}`, { key: user.key });
  assert.deepEqual(next.body.data.map((c: any) => c.id), [actions[0].id]);

  // a user's own list takes the same filter
  const mine = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: action("my-typed-action") } });
  await save("my-typed-source", user.key);
  const myActions = await t.request("GET", "/v1/users/me/components?type=action", { key: user.key });
  assert.deepEqual(myActions.body.data.map((c: any) => c.id), [mine.body.data.id]);

  for (const path of ["/v1/components/registry", "/v1/users/me/components"]) {
    for (const q of ["type=actions", "type=", "type=Source"]) {
      const bad = await t.request("GET", `${path}?${q}`, { key: user.key });
      assertErrorEnvelope(bad, 400, "invalid_request");
      assert.deepEqual(detailFields(bad), ["type"], bad.text);
    }
  }
});

test("component lists: bad inputs are 400 with details, no key is 401", async () => {
  const user = await t.newUser();
  const other = await t.newUser();
  const theirs = await save("cursor-of-other", other.key);
  for (const path of ["/v1/users/me/components", "/v1/components/registry"]) {
    for (const q of ["limit=0", "limit=101", "limit=x"]) {
      const res = await t.request("GET", `${path}?${q}`, { key: user.key });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).some((f) => f.includes("limit")), res.text);
    }
    const bad = await t.request("GET", `${path}?after=not-a-cursor`, { key: user.key });
    assertErrorEnvelope(bad, 400, "invalid_request");
    assert.deepEqual(detailFields(bad), ["after"]);
    const both = await t.request("GET", `${path}?after=x&before=y`, { key: user.key });
    assertErrorEnvelope(both, 400, "invalid_request");
    assertErrorEnvelope(await t.request("GET", path, { key: null }), 401, "unauthorized");
  }
  // another user's component id is no position in my list
  const page = await t.request("GET", "/v1/users/me/components", { key: other.key });
  const cursor = page.body.page_info.start_cursor;
  assert.equal(page.body.data[0].id, theirs.id);
  const res = await t.request("GET", `/v1/users/me/components?after=${cursor}`, { key: user.key });
  assertErrorEnvelope(res, 400, "invalid_request");
});

test("component lists are in the OpenAPI document", async () => {
  const res = await t.request("GET", "/v1/openapi.json");
  assert.equal(res.status, 200);
  assert.ok(res.body.paths["/v1/users/me/components"]?.get, "users/me/components");
  assert.ok(res.body.paths["/v1/components/registry"]?.get, "components/registry GET");
});
