import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  startApp,
  waitEvents,
  assertErrorEnvelope,
  assertRecentSeconds,
  detailFields,
  fixture,
  serveFiles,
  HTTP_COMPONENT,
  TIMER_COMPONENT,
  type FileServer,
  type TestApp,
} from "./helpers.ts";

const PUBLIC_URL = "http://tributary.test";
const REMOTE_CODE = `
export default {
  key: "test-remote-source",
  name: "Remote Source",
  version: "0.0.1",
  props: { note: { type: "string" } },
  run() {},
};
`;
const SOURCE_FIELDS = ["active", "component_id", "configured_props", "created_at", "id", "name", "name_slug", "updated_at", "user_id"];

let t: TestApp;
let files: FileServer;

before(async () => {
  files = await serveFiles({ "/remote.js": REMOTE_CODE });
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: files.hostPort, TRIBUTARY_PUBLIC_URL: PUBLIC_URL });
});
after(async () => {
  await t.close();
  await files.close();
});

interface User {
  id: string;
  key: string;
}

async function saveComponent(user: User, code: string): Promise<string> {
  const res = await t.request("POST", "/v1/components", { key: user.key, body: { component_code: code } });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

async function create(user: User, body: Record<string, unknown>): Promise<any> {
  const res = await t.request("POST", "/v1/sources/", { key: user.key, body });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

async function listAll(user: User, query = ""): Promise<any> {
  const res = await t.request("GET", `/v1/users/me/sources/?limit=100${query}`, { key: user.key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const TIMER_PROPS = { label: "hello", count: 3 };

// ---- creating ---------------------------------------------------------------------------------

test("POST /sources/ with component_id: 200 with the Source including user_id, active, echoed props", async () => {
  const user = await t.newUser();
  const componentId = await saveComponent(user, TIMER_COMPONENT);
  const res = await t.request("POST", "/v1/sources/", {
    key: user.key,
    body: { component_id: componentId, configured_props: TIMER_PROPS },
  });
  assert.equal(res.status, 200, res.text);
  const s = res.body.data;
  assert.deepEqual(Object.keys(s).sort(), SOURCE_FIELDS);
  assert.match(s.id, /^dc_[A-Za-z0-9_-]{8,22}$/);
  assert.equal(s.user_id, user.id);
  assert.equal(s.component_id, componentId);
  assert.equal(s.active, true);
  assertRecentSeconds(s.created_at, "created_at");
  assertRecentSeconds(s.updated_at, "updated_at");
  // the timer was not configured: its default (60 s) is echoed; the db prop is not echoed
  assert.deepEqual(s.configured_props, { label: "hello", count: 3, timer: { cron: null, interval_seconds: 60 } });
});

test("POST /sources/ with component_code saves the component and uses it", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: { label: "x" } });
  assert.match(s.component_id, /^sc_/);
  const c = await t.request("GET", `/v1/components/${s.component_id}`, { key: user.key });
  assert.equal(c.status, 200, c.text);
  assert.equal(c.body.data.code, TIMER_COMPONENT);
  assert.equal(s.name, "test-timer");
});

test("POST /sources/ with an allowed component_url fetches the code", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_url: `${files.origin}/remote.js`, configured_props: { note: "n" } });
  const c = await t.request("GET", `/v1/components/${s.component_id}`, { key: user.key });
  assert.equal(c.body.data.code, REMOTE_CODE);
  assert.equal(s.name, "remote-source");
  assert.deepEqual(s.configured_props, { note: "n" });
});

test("POST /sources/ with a registry key uses the shipped component", async () => {
  const user = await t.newUser();
  const registry = await t.request("GET", "/v1/components/registry/rss-new-item-in-feed", { key: user.key });
  const s = await create(user, { key: "rss-new-item-in-feed", configured_props: { url: "https://example.com/feed.xml" } });
  assert.equal(s.component_id, registry.body.data.id);
  assert.equal(s.name, "new-item-in-feed");
  assert.deepEqual(s.configured_props, {
    url: "https://example.com/feed.xml",
    timer: { cron: null, interval_seconds: 900 },
  });
  const missing = await t.request("POST", "/v1/sources/", { key: user.key, body: { key: "rss-new-item-in-feed" } });
  assertErrorEnvelope(missing, 400, "invalid_request");
  assert.ok(detailFields(missing).some((f) => f.includes("url")), missing.text);
  assertErrorEnvelope(
    await t.request("POST", "/v1/sources/", { key: user.key, body: { key: "no-such-registry-key" } }),
    404,
    "not_found",
  );
});

test("precedence: component_id over component_code over component_url over key", async () => {
  const user = await t.newUser();
  const timerId = await saveComponent(user, TIMER_COMPONENT);

  const hitsBefore = files.hits.length;
  const byId = await create(user, {
    component_id: timerId,
    component_code: HTTP_COMPONENT,
    component_url: `${files.origin}/remote.js`,
    key: "http-new-requests",
    configured_props: { label: "id wins" },
  });
  assert.equal(byId.component_id, timerId);
  assert.equal(files.hits.length, hitsBefore, "component_url must not be fetched when component_id is given");

  const hits = files.hits.length;
  const byCode = await create(user, {
    component_code: HTTP_COMPONENT,
    component_url: `${files.origin}/remote.js`,
    key: "schedule-custom-interval",
  });
  const code = await t.request("GET", `/v1/components/${byCode.component_id}`, { key: user.key });
  assert.equal(code.body.data.code, HTTP_COMPONENT);
  assert.equal(files.hits.length, hits, "component_url must not be fetched when component_code is given");

  const byUrl = await create(user, { component_url: `${files.origin}/remote.js`, key: "schedule-custom-interval", configured_props: { note: "u" } });
  const remote = await t.request("GET", `/v1/components/${byUrl.component_id}`, { key: user.key });
  assert.equal(remote.body.data.code, REMOTE_CODE);
});

test("timer props echo as {cron, interval_seconds}: configured interval, cron, and the 900 s default", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  const interval = await create(user, { component_id: id, configured_props: { label: "a", timer: { intervalSeconds: 120 } } });
  assert.deepEqual(interval.configured_props.timer, { cron: null, interval_seconds: 120 });
  const cron = await create(user, { component_id: id, configured_props: { label: "b", timer: { cron: "*/5 * * * *" } } });
  assert.deepEqual(cron.configured_props.timer, { cron: "*/5 * * * *", interval_seconds: null });
  const seconds = await create(user, { component_id: id, configured_props: { label: "c", timer: { cron: "*/10 * * * * *" } } });
  assert.deepEqual(seconds.configured_props.timer, { cron: "*/10 * * * * *", interval_seconds: null }, "6-field cron");
  // a timer declared without a default runs at the spec's default interval
  const noDefault = await create(user, { component_code: fixture("props-check.js"), configured_props: { first: "f", second: 2 } });
  assert.deepEqual(noDefault.configured_props.timer, { cron: null, interval_seconds: 900 });
});

test("an HTTP source echoes {endpoint_url} under TRIBUTARY_PUBLIC_URL, one per source", async () => {
  const user = await t.newUser();
  const a = await create(user, { component_code: HTTP_COMPONENT });
  const b = await create(user, { component_code: HTTP_COMPONENT });
  assert.deepEqual(Object.keys(a.configured_props), ["http"]);
  assert.deepEqual(Object.keys(a.configured_props.http), ["endpoint_url"]);
  const url = a.configured_props.http.endpoint_url;
  assert.ok(url.startsWith(`${PUBLIC_URL}/`), url);
  assert.doesNotThrow(() => new URL(url));
  assert.notEqual(b.configured_props.http.endpoint_url, url);
});

test("secret props are echoed as ******** in create, list and update responses", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: fixture("props-check.js"), configured_props: { first: "f", second: 1, token: "s3cret-value" } });
  assert.equal(s.configured_props.token, "********");
  assert.ok(!JSON.stringify(s).includes("s3cret-value"));
  const list = await listAll(user);
  assert.equal(list.data[0].configured_props.token, "********");
  assert.ok(!JSON.stringify(list).includes("s3cret-value"));
  const put = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { configured_props: { first: "g" } } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.data.configured_props.token, "********");
  assert.equal(put.body.data.configured_props.first, "g");
  // "stored encrypted at rest": the plain value is in none of the store's files
  for (const name of readdirSync(t.dataDir)) {
    const path = join(t.dataDir, name);
    if (!statSync(path).isFile()) continue;
    assert.ok(!readFileSync(path).includes("s3cret-value"), `${name} holds the secret in clear`);
  }
});

test("the default name is the slug of the component name (or key), made unique with -2, -3", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  const names = [];
  for (let i = 0; i < 3; i++) names.push(await create(user, { component_id: id, configured_props: { label: "x" } }));
  assert.deepEqual(
    names.map((s) => [s.name, s.name_slug]),
    [
      ["test-timer", "test-timer"],
      ["test-timer-2", "test-timer-2"],
      ["test-timer-3", "test-timer-3"],
    ],
  );
  const check = await create(user, { component_code: fixture("props-check.js"), configured_props: { first: "f", second: 2 } });
  assert.equal(check.name, "props-check");
  const keyOnly = await create(user, { component_code: fixture("key-only.js") });
  assert.equal(keyOnly.name, "key-only-component");
  assert.equal(keyOnly.name_slug, "key-only-component");
});

test("given names get a slug; repeated names get unique slugs per user only", async () => {
  const user = await t.newUser();
  const other = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  const otherId = await saveComponent(other, TIMER_COMPONENT);
  const first = await create(user, { component_id: id, name: "My Feed!", configured_props: { label: "x" } });
  assert.equal(first.name, "My Feed!");
  assert.equal(first.name_slug, "my-feed");
  const second = await create(user, { component_id: id, name: "My Feed!", configured_props: { label: "x" } });
  assert.equal(second.name_slug, "my-feed-2");
  assert.notEqual(second.name, first.name);
  assert.ok(second.name.endsWith("-2"), second.name);
  const third = await create(user, { component_id: id, name: "my feed", configured_props: { label: "x" } });
  assert.equal(third.name_slug, "my-feed-3");
  const theirs = await create(other, { component_id: otherId, name: "My Feed!", configured_props: { label: "x" } });
  assert.equal(theirs.name_slug, "my-feed");
});

test("an app prop may be omitted (then not echoed) or given its auth object (echoed as given)", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, fixture("all-props.js"));
  const without = await create(user, { component_id: id, configured_props: { zeta: "z", plain: true } });
  assert.equal("feed" in without.configured_props, false, JSON.stringify(without.configured_props));
  assert.equal("db" in without.configured_props, false);
  assert.equal(without.configured_props.zeta, "z");
  assert.equal(without.configured_props.plain, true);
  assert.deepEqual(without.configured_props.timer, { cron: null, interval_seconds: 120 });
  assert.equal(typeof without.configured_props.http.endpoint_url, "string");
  const auth = { oauth_access_token: "tok" };
  const withAuth = await create(user, { component_id: id, configured_props: { zeta: "z", plain: false, feed: auth } });
  assert.deepEqual(withAuth.configured_props.feed, auth);
});

test("an alert prop (display-only, as Pipedream's) is described with its text, never required nor stored", async () => {
  const user = await t.newUser();
  const code = `export default {
    name: "With a note",
    props: {
      note: { type: "alert", alertType: "warning", content: "Create an API token first." },
      token: { type: "string" },
    },
    run() { this.$emit({ note: this.note === undefined ? "none" : "some", token: this.token }); },
  };`;
  const id = await saveComponent(user, code);
  const comp = await t.request("GET", `/v1/components/${id}`, { key: user.key });
  const note = comp.body.data.configurable_props.find((p: { name: string }) => p.name === "note");
  assert.deepEqual([note.type, note.alertType, note.content], ["alert", "warning", "Create an API token first."]);
  const src = await create(user, { component_id: id, configured_props: { token: "t" } });
  assert.equal("note" in src.configured_props, false);
  // a value sent for it anyway is not kept
  const again = await create(user, { component_id: id, configured_props: { token: "t", note: "ignored" } });
  assert.equal("note" in again.configured_props, false);
  await t.request("POST", `/v1/sources/${again.id}/run`, { key: user.key });
  const [ev] = await waitEvents(t, again.id, 1, "", 10_000, user.key);
  assert.deepEqual(ev.event, { note: "none", token: "t" });
});

// ---- validation -------------------------------------------------------------------------------

test("missing required props are 400 with one details entry per missing prop", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, fixture("props-check.js"));
  for (const configured_props of [undefined, {}]) {
    const res = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: id, configured_props } });
    assertErrorEnvelope(res, 400, "invalid_request");
    const fields = detailFields(res);
    assert.equal(fields.length, 2, res.text);
    assert.ok(fields.some((f) => /(^|\.)first$/.test(f)), res.text);
    assert.ok(fields.some((f) => /(^|\.)second$/.test(f)), res.text);
  }
  const one = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: id, configured_props: { first: "f" } } });
  assertErrorEnvelope(one, 400, "invalid_request");
  assert.equal(detailFields(one).length, 1, one.text);
  assert.equal((await listAll(user)).page_info.total_count, 0, "no source was created");
});

test("an unknown prop is 400 invalid_request naming it", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  const res = await t.request("POST", "/v1/sources/", {
    key: user.key,
    body: { component_id: id, configured_props: { label: "x", colour: "red" } },
  });
  assertErrorEnvelope(res, 400, "invalid_request");
  assert.ok(detailFields(res).some((f) => f.includes("colour")), res.text);
});

test("wrongly typed props and fields are 400 invalid_request", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, fixture("props-check.js"));
  const ok = { first: "f", second: 2 };
  const bad: Record<string, unknown>[] = [
    { ...ok, first: 5 },
    { ...ok, second: "2" },
    { ...ok, second: 2.5 },
    { ...ok, flag: "true" },
    { ...ok, tags: "a" },
    { ...ok, tags: [1, 2] },
    { ...ok, timer: { intervalSeconds: 0 } },
    { ...ok, timer: { intervalSeconds: "60" } },
    { ...ok, timer: { cron: "not a cron" } },
    { ...ok, timer: 60 },
  ];
  for (const configured_props of bad) {
    const res = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: id, configured_props } });
    assertErrorEnvelope(res, 400, "invalid_request");
  }
  for (const body of [
    { component_id: id, configured_props: "first=f" },
    { component_id: id, configured_props: [ok] },
    { component_id: id, configured_props: ok, name: 5 },
    { component_id: 5, configured_props: ok },
    { component_code: 5 },
  ]) {
    const res = await t.request("POST", "/v1/sources/", { key: user.key, body });
    assertErrorEnvelope(res, 400, "invalid_request");
  }
  assert.equal((await listAll(user)).page_info.total_count, 0, "no source was created");
  // the valid ones do go through
  const good = await create(user, { component_id: id, configured_props: { ...ok, flag: true, tags: ["a", "b"] } });
  assert.deepEqual(good.configured_props.tags, ["a", "b"]);
  assert.equal(good.configured_props.flag, true);
});

test("integer props obey min and max", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  for (const count of [0, 11, -1]) {
    const res = await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: id, configured_props: { label: "x", count } } });
    assertErrorEnvelope(res, 400, "invalid_request");
  }
  for (const count of [1, 10]) {
    const s = await create(user, { component_id: id, configured_props: { label: "x", count } });
    assert.equal(s.configured_props.count, count);
  }
});

test("props with options accept only the listed values", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, fixture("props-check.js"));
  const base = { first: "f", second: 2 };
  assertErrorEnvelope(
    await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: id, configured_props: { ...base, color: "blue" } } }),
    400,
    "invalid_request",
  );
  assertErrorEnvelope(
    await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: id, configured_props: { ...base, size: "m" } } }),
    400,
    "invalid_request",
  );
  const s = await create(user, { component_id: id, configured_props: { ...base, color: "red", size: "s" } });
  assert.equal(s.configured_props.color, "red");
  assert.equal(s.configured_props.size, "s");
});

test("no component named is 400; an unknown component_id is 404", async () => {
  const user = await t.newUser();
  assertErrorEnvelope(await t.request("POST", "/v1/sources/", { key: user.key, body: {} }), 400, "invalid_request");
  assertErrorEnvelope(
    await t.request("POST", "/v1/sources/", { key: user.key, body: { configured_props: { label: "x" } } }),
    400,
    "invalid_request",
  );
  assertErrorEnvelope(
    await t.request("POST", "/v1/sources/", { key: user.key, body: { component_id: "sc_doesnotexist000" } }),
    404,
    "not_found",
  );
});

test("POST /sources/ without Content-Type application/json is 415", async () => {
  const user = await t.newUser();
  const res = await t.request("POST", "/v1/sources/", {
    key: user.key,
    raw: JSON.stringify({ component_code: HTTP_COMPONENT }),
    headers: { "content-type": "text/plain" },
  });
  assertErrorEnvelope(res, 415, "unsupported_media_type");
  assert.equal((await listAll(user)).page_info.total_count, 0);
});

// ---- updating and deleting --------------------------------------------------------------------

test("PUT /sources/{id} renames and returns 200 with the Source including user_id", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const res = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { name: "Renamed Source" } });
  assert.equal(res.status, 200, res.text);
  const u = res.body.data;
  assert.deepEqual(Object.keys(u).sort(), SOURCE_FIELDS);
  assert.equal(u.id, s.id);
  assert.equal(u.user_id, user.id);
  assert.equal(u.name, "Renamed Source");
  assert.equal(u.name_slug, "renamed-source");
  assert.equal(u.component_id, s.component_id);
  assert.deepEqual(u.configured_props, s.configured_props);
  assert.equal(u.created_at, s.created_at);
  assertRecentSeconds(u.updated_at, "updated_at");
  const listed = (await listAll(user)).data.find((x: { id: string }) => x.id === s.id);
  assert.equal(listed.name, "Renamed Source");
});

test("PUT active:false disables, active:true enables, and omitting active means true", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const off = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { active: false } });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.body.data.active, false);
  assert.equal((await listAll(user)).data[0].active, false);

  const on = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { active: true } });
  assert.equal(on.body.data.active, true);

  await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { active: false } });
  const omitted = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { name: "still here" } });
  assert.equal(omitted.status, 200, omitted.text);
  assert.equal(omitted.body.data.active, true);

  await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { active: false } });
  const empty = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: {} });
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.body.data.active, true);

  assertErrorEnvelope(await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { active: "false" } }), 400, "invalid_request");
});

test("PUT with an empty JSON body (every field is optional) re-enables the source", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { active: false } });
  // the curl form the service already accepts for POST /subscriptions: JSON content type, no payload
  const res = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, raw: "", headers: { "content-type": "application/json" } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.active, true);
  assert.deepEqual(res.body.data.configured_props, s.configured_props);
});

test("PUT renaming onto another source's name gets a unique slug; keeping the own name keeps the slug", async () => {
  const user = await t.newUser();
  const a = await create(user, { component_code: TIMER_COMPONENT, name: "Alpha", configured_props: TIMER_PROPS });
  const b = await create(user, { component_code: TIMER_COMPONENT, name: "Beta", configured_props: TIMER_PROPS });
  const same = await t.request("PUT", `/v1/sources/${a.id}`, { key: user.key, body: { name: "Alpha" } });
  assert.equal(same.body.data.name_slug, "alpha");
  assert.equal(same.body.data.name, "Alpha");
  const clash = await t.request("PUT", `/v1/sources/${b.id}`, { key: user.key, body: { name: "Alpha" } });
  assert.equal(clash.status, 200, clash.text);
  assert.equal(clash.body.data.name_slug, "alpha-2");
  const slugs = (await listAll(user)).data.map((x: { name_slug: string }) => x.name_slug).sort();
  assert.deepEqual(slugs, ["alpha", "alpha-2"]);
});

test("PUT without Content-Type application/json is 415 and changes nothing", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const res = await t.request("PUT", `/v1/sources/${s.id}`, {
    key: user.key,
    raw: JSON.stringify({ active: false }),
    headers: { "content-type": "text/plain" },
  });
  assertErrorEnvelope(res, 415, "unsupported_media_type");
  assert.equal((await listAll(user)).data[0].active, true);
  assertErrorEnvelope(
    await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, raw: "{active:", headers: { "content-type": "application/json" } }),
    400,
    "invalid_request",
  );
});

test("PUT configured_props are merged over the current ones; invalid ones change nothing", async () => {
  const user = await t.newUser();
  const s = await create(user, {
    component_code: TIMER_COMPONENT,
    configured_props: { label: "a", count: 3, timer: { intervalSeconds: 120 } },
  });
  const res = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { configured_props: { count: 5 } } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.configured_props, { label: "a", count: 5, timer: { cron: null, interval_seconds: 120 } });

  const cron = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { configured_props: { timer: { cron: "0 * * * *" } } } });
  assert.equal(cron.status, 200, cron.text);
  assert.deepEqual(cron.body.data.configured_props, { label: "a", count: 5, timer: { cron: "0 * * * *", interval_seconds: null } });

  assertErrorEnvelope(
    await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { configured_props: { count: 99 } } }),
    400,
    "invalid_request",
  );
  assertErrorEnvelope(
    await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { configured_props: { nope: 1 } } }),
    400,
    "invalid_request",
  );
  const listed = (await listAll(user)).data.find((x: { id: string }) => x.id === s.id);
  assert.deepEqual(listed.configured_props, cron.body.data.configured_props);
});

test("PUT with new code keeps the dc_ id and the endpoint URL", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: HTTP_COMPONENT });
  const url = s.configured_props.http.endpoint_url;
  const v2 = HTTP_COMPONENT.replace('version: "0.1.0"', 'version: "0.2.0"');
  const res = await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { component_code: v2 } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.id, s.id);
  assert.notEqual(res.body.data.component_id, s.component_id);
  assert.deepEqual(res.body.data.configured_props, { http: { endpoint_url: url } });
  const c = await t.request("GET", `/v1/components/${res.body.data.component_id}`, { key: user.key });
  assert.equal(c.body.data.version, "0.2.0");
  const listed = await listAll(user);
  assert.equal(listed.page_info.total_count, 1, "updating made no new source");
  assert.equal(listed.data[0].component_id, res.body.data.component_id);
});

test("DELETE /sources/{id} answers {id, deleted:true}; then it is 404 and gone from the list", async () => {
  const user = await t.newUser();
  const keep = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const res = await t.request("DELETE", `/v1/sources/${s.id}`, { key: user.key });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, { id: s.id, deleted: true });
  assertErrorEnvelope(await t.request("DELETE", `/v1/sources/${s.id}`, { key: user.key }), 404, "not_found");
  assertErrorEnvelope(await t.request("PUT", `/v1/sources/${s.id}`, { key: user.key, body: { name: "back" } }), 404, "not_found");
  const list = await listAll(user);
  assert.deepEqual(
    list.data.map((x: { id: string }) => x.id),
    [keep.id],
  );
  assert.equal(list.page_info.total_count, 1);
  assertErrorEnvelope(await t.request("DELETE", "/v1/sources/dc_doesnotexist000", { key: user.key }), 404, "not_found");
});

test("another user's sources and components are 404 for PUT, DELETE and POST", async () => {
  const owner = await t.newUser();
  const stranger = await t.newUser();
  const componentId = await saveComponent(owner, TIMER_COMPONENT);
  const s = await create(owner, { component_id: componentId, configured_props: TIMER_PROPS });
  const strangers = await create(stranger, { component_code: TIMER_COMPONENT.replace("0.1.0", "9.9.9"), configured_props: TIMER_PROPS });
  // nor can the stranger point their own source at the owner's component
  assertErrorEnvelope(
    await t.request("PUT", `/v1/sources/${strangers.id}`, { key: stranger.key, body: { component_id: componentId } }),
    404,
    "not_found",
  );

  assertErrorEnvelope(
    await t.request("PUT", `/v1/sources/${s.id}`, { key: stranger.key, body: { name: "mine now", active: false } }),
    404,
    "not_found",
  );
  assertErrorEnvelope(await t.request("DELETE", `/v1/sources/${s.id}`, { key: stranger.key }), 404, "not_found");
  // indistinguishable from an id that does not exist at all
  const theirs = await t.request("DELETE", `/v1/sources/${s.id}`, { key: stranger.key });
  const nobody = await t.request("DELETE", "/v1/sources/dc_doesnotexist000", { key: stranger.key });
  assert.deepEqual(theirs.body, nobody.body);
  assertErrorEnvelope(
    await t.request("POST", "/v1/sources/", { key: stranger.key, body: { component_id: componentId, configured_props: TIMER_PROPS } }),
    404,
    "not_found",
  );
  const list = await listAll(owner);
  assert.equal(list.data.length, 1);
  assert.equal(list.data[0].name, s.name);
  assert.equal(list.data[0].active, true);
  assert.deepEqual(
    (await listAll(stranger)).data.map((x: { id: string; component_id: string }) => [x.id, x.component_id]),
    [[strangers.id, strangers.component_id]],
  );
});

// ---- listing ----------------------------------------------------------------------------------

test("GET /users/me/sources/ lists only the caller's sources, newest first, without user_id", async () => {
  const user = await t.newUser();
  const other = await t.newUser();
  await create(other, { component_code: HTTP_COMPONENT });
  const id = await saveComponent(user, TIMER_COMPONENT);
  const made = [];
  for (let i = 0; i < 3; i++) made.push(await create(user, { component_id: id, configured_props: { label: `n${i}` } }));
  const list = await listAll(user);
  assert.deepEqual(
    list.data.map((x: { id: string }) => x.id),
    made.map((x) => x.id).reverse(),
  );
  for (const item of list.data) {
    assert.deepEqual(Object.keys(item).sort(), SOURCE_FIELDS.filter((f) => f !== "user_id"));
  }
  assert.deepEqual(list.data[2].configured_props, made[0].configured_props);
  assert.deepEqual(list.page_info, { total_count: 3, count: 3, start_cursor: list.page_info.start_cursor, end_cursor: list.page_info.end_cursor });
});

test("the list is current right after every create, update and delete", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  const ids = async () => (await listAll(user)).data.map((x: { id: string }) => x.id);
  assert.deepEqual(await ids(), []);
  const a = await create(user, { component_id: id, configured_props: { label: "a" } });
  assert.deepEqual(await ids(), [a.id]);
  const b = await create(user, { component_id: id, configured_props: { label: "b" } });
  const page = await t.request("GET", "/v1/users/me/sources/?limit=1", { key: user.key });
  assert.deepEqual(page.body.data.map((x: { id: string }) => x.id), [b.id]);
  assert.equal(page.body.page_info.total_count, 2);

  await t.request("PUT", `/v1/sources/${a.id}`, { key: user.key, body: { name: "Changed", active: false, configured_props: { count: 4 } } });
  const changed = (await listAll(user)).data[1];
  assert.equal(changed.name, "Changed");
  assert.equal(changed.active, false);
  assert.equal(changed.configured_props.count, 4);

  await t.request("DELETE", `/v1/sources/${b.id}`, { key: user.key });
  const after = await listAll(user);
  assert.deepEqual(after.data.map((x: { id: string }) => x.id), [a.id]);
  assert.equal(after.page_info.total_count, 1);
});

test("pagination follows docs/api.md: limit, after/before cursors, empty pages, counts", async () => {
  const user = await t.newUser();
  const id = await saveComponent(user, TIMER_COMPONENT);
  const created: string[] = [];
  for (let i = 0; i < 12; i++) created.push((await create(user, { component_id: id, configured_props: { label: `p${i}` } })).id);
  const ids = [...created].reverse(); // list order: newest first
  const page = async (query: string) => {
    const res = await t.request("GET", `/v1/users/me/sources/?${query}`, { key: user.key });
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    assert.equal(res.body.page_info.total_count, 12, query);
    assert.equal(res.body.page_info.count, res.body.data.length, query);
    return { ids: res.body.data.map((x: { id: string }) => x.id) as string[], info: res.body.page_info };
  };
  const q = encodeURIComponent;

  const def = await page("");
  assert.deepEqual(def.ids, ids.slice(0, 10), "limit defaults to 10");
  assert.equal(typeof def.info.start_cursor, "string");
  assert.ok(def.info.start_cursor.length > 0);

  const p1 = await page("limit=5");
  assert.deepEqual(p1.ids, ids.slice(0, 5));
  const p2 = await page(`limit=5&after=${q(p1.info.end_cursor)}`);
  assert.deepEqual(p2.ids, ids.slice(5, 10));
  const p3 = await page(`limit=5&after=${q(p2.info.end_cursor)}`);
  assert.deepEqual(p3.ids, ids.slice(10, 12));
  const p4 = await page(`limit=5&after=${q(p3.info.end_cursor)}`);
  assert.deepEqual(p4.ids, []);
  assert.equal(p4.info.start_cursor, "");
  assert.equal(p4.info.end_cursor, "");

  // start_cursor/end_cursor are the first/last items' cursors
  assert.deepEqual((await page(`limit=100&after=${q(p2.info.start_cursor)}`)).ids, ids.slice(6));
  assert.deepEqual((await page(`limit=100&before=${q(p2.info.end_cursor)}`)).ids, ids.slice(0, 9));

  // before: the newer items nearest to the cursor, still in list order
  assert.deepEqual((await page(`limit=5&before=${q(p2.info.start_cursor)}`)).ids, ids.slice(0, 5));
  assert.deepEqual((await page(`limit=3&before=${q(p2.info.end_cursor)}`)).ids, ids.slice(6, 9));
  assert.deepEqual((await page(`limit=2&before=${q(p3.info.start_cursor)}`)).ids, ids.slice(8, 10));
  const newest = await page(`before=${q(p1.info.start_cursor)}`);
  assert.deepEqual(newest.ids, []);
  assert.equal(newest.info.start_cursor, "");
  assert.equal(newest.info.end_cursor, "");

  // an empty cursor is the same as none
  assert.deepEqual((await page("limit=5&after=")).ids, ids.slice(0, 5));
  assert.deepEqual((await page("limit=5&before=")).ids, ids.slice(0, 5));

  assert.deepEqual((await page("limit=1")).ids, ids.slice(0, 1));
  assert.deepEqual((await page("limit=100")).ids, ids);
  for (const bad of ["limit=0", "limit=101", "limit=-1", "limit=abc", "limit=2.5", "after=%25%25%25", "before=!!", "after=bm9wZQ"]) {
    const res = await t.request("GET", `/v1/users/me/sources/?${bad}`, { key: user.key });
    assertErrorEnvelope(res, 400, "invalid_request");
  }
});

// ---- include / exclude ------------------------------------------------------------------------

test("include keeps only the named fields of each item; page_info is never filtered", async () => {
  const user = await t.newUser();
  const s = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const res = await t.request("GET", "/v1/users/me/sources/?include=id,name", { key: user.key });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, [{ id: s.id, name: s.name }]);
  assert.deepEqual(Object.keys(res.body.page_info).sort(), ["count", "end_cursor", "start_cursor", "total_count"]);
  assert.equal(res.body.page_info.total_count, 1);

  const unfiltered = await t.request("GET", "/v1/users/me/sources/?exclude=page_info,total_count,count&include=id,page_info", { key: user.key });
  assert.deepEqual(unfiltered.body.page_info, res.body.page_info);
  assert.deepEqual(unfiltered.body.data, [{ id: s.id }]);
});

test("exclude removes fields, dotted names reach one level down, include applies before exclude", async () => {
  const user = await t.newUser();
  const timer = await create(user, { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS });
  const http = await create(user, { component_code: HTTP_COMPONENT });
  const get = async (query: string) => {
    const res = await t.request("GET", `/v1/users/me/sources/?${query}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  const noHttp = await get("exclude=configured_props.http");
  assert.deepEqual(noHttp[0].configured_props, {});
  assert.equal(noHttp[0].id, http.id);
  assert.equal(noHttp[0].name, http.name);
  assert.deepEqual(noHttp[1].configured_props, timer.configured_props);

  const noProps = await get("exclude=configured_props,created_at");
  for (const item of noProps) {
    assert.equal(item.configured_props, undefined);
    assert.equal(item.created_at, undefined);
    assert.equal(typeof item.id, "string");
  }

  assert.deepEqual(await get("include=id,configured_props&exclude=configured_props"), [{ id: http.id }, { id: timer.id }]);
  const onlyTimer = await get("include=configured_props.timer");
  assert.deepEqual(onlyTimer[1], { configured_props: { timer: timer.configured_props.timer } });
  assert.equal(onlyTimer[0].id, undefined);
  const dotted = await get("include=id,configured_props.timer");
  assert.deepEqual(dotted[1], { id: timer.id, configured_props: { timer: timer.configured_props.timer } });
  assert.equal(dotted[0].id, http.id);
  assert.equal(dotted[0].configured_props?.http, undefined);

  // unknown names are ignored
  assert.deepEqual(await get("include=id,bogus"), [{ id: http.id }, { id: timer.id }]);
  const full = await get("");
  assert.deepEqual(await get("exclude=bogus,configured_props.bogus"), full);
});

test("include/exclude also work on POST and PUT bodies and on a single Source", async () => {
  const user = await t.newUser();
  const res = await t.request("POST", "/v1/sources/", {
    key: user.key,
    body: { component_code: TIMER_COMPONENT, configured_props: TIMER_PROPS, include: "id,active,user_id" },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body.data).sort(), ["active", "id", "user_id"]);
  assert.equal(res.body.data.user_id, user.id);
  // the source itself is whole
  const listed = (await listAll(user)).data[0];
  assert.equal(listed.id, res.body.data.id);
  assert.deepEqual(listed.configured_props.label, "hello");

  const put = await t.request("PUT", `/v1/sources/${listed.id}`, {
    key: user.key,
    body: { name: "filtered", exclude: "configured_props,user_id" },
  });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.data.configured_props, undefined);
  assert.equal(put.body.data.user_id, undefined);
  assert.equal(put.body.data.name, "filtered");
});
