import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import pg from "pg";
import {
  HTTP_COMPONENT, assertErrorEnvelope, assertRecentSeconds, createSource, detailFields, endpointPath, startApp, waitEvents, waitFor,
  type Reply, type TestApp,
} from "./helpers.ts";

// Connected accounts (Pipedream's `apn_` ids), black-box through the API: managing them, using
// them from an app prop ({"authProvisionId": ...}), their auth sealed at rest and never shown.
// Also the smaller parts of the same issue: /users/me's orgs, case-insensitive endpoint keys,
// and `$.interface.apphook` props.

const ACCOUNT_FIELDS = ["app", "auth_fields", "created_at", "events_url", "id", "name", "oauth", "status", "updated_at"];

/** A source whose run emits the auth its github app prop sees. */
const GITHUB_SOURCE = `
export default {
  key: "gh-auth",
  name: "GH Auth",
  version: "0.1.0",
  props: { github: { type: "app", app: "github" } },
  run() { this.$emit({ auth: this.github.$auth, app: this.github.app }); },
};`;

interface User {
  id: string;
  key: string;
}

/** secret-looking values unique to one test, so a leak can be searched for as text */
const secret = (label: string) => `${label}-${Math.random().toString(36).slice(2)}-SECRET`;

describe("connected accounts", () => {
  let t: TestApp;
  /** every response body seen, to check at the end that no auth value was ever sent back */
  const seen: string[] = [];
  const secrets: string[] = [];
  before(async () => (t = await startApp()));
  after(async () => {
    for (const s of secrets) for (const text of seen) assert.ok(!text.includes(s), `an auth value was echoed: ${text}`);
    await t.close();
  });

  async function call(method: string, url: string, user: User, body?: unknown): Promise<Reply> {
    const res = await t.request(method, url, { key: user.key, body });
    seen.push(res.text);
    return res;
  }

  async function connect(user: User, body: Record<string, unknown>) {
    for (const v of Object.values((body.auth ?? {}) as Record<string, unknown>)) if (typeof v === "string" && v.endsWith("-SECRET")) secrets.push(v);
    const res = await call("POST", "/v1/accounts", user, body);
    assert.equal(res.status, 200, res.text);
    return res.body.data as { id: string; app: string; name: string; auth_fields: string[]; created_at: number; updated_at: number };
  }

  async function source(user: User, props: Record<string, unknown>, code = GITHUB_SOURCE) {
    const res = await call("POST", "/v1/sources/", user, { component_code: code, configured_props: props });
    return res;
  }

  async function runAndRead(user: User, sourceId: string, n: number) {
    assert.equal((await call("POST", `/v1/sources/${sourceId}/run`, user)).status, 202);
    const events = await waitEvents(t, sourceId, n, "", 10_000, user.key);
    seen.push(JSON.stringify(await waitEvents(t, sourceId, 0, "$errors", 10_000, user.key)));
    return events[0].event;
  }

  // ---- managing ---------------------------------------------------------------------------------

  it("POST /accounts: {id: apn_, app, name, created_at, updated_at, auth_fields}; GET shows the same, never the auth", async () => {
    const user = await t.newUser();
    const token = secret("token");
    const res = await call("POST", "/v1/accounts", user, { app: "github", name: "My GitHub", auth: { oauth_access_token: token, login: "ada" } });
    secrets.push(token);
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/i);
    const a = res.body.data;
    assert.deepEqual(Object.keys(a).sort(), ACCOUNT_FIELDS);
    assert.match(a.id, /^apn_[A-Za-z0-9_-]{8,22}$/);
    assert.equal(a.app, "github");
    assert.equal(a.name, "My GitHub");
    assert.deepEqual(a.auth_fields, ["oauth_access_token", "login"], "the keys of auth, in the order given");
    assertRecentSeconds(a.created_at, "created_at");
    assertRecentSeconds(a.updated_at, "updated_at");

    const got = await call("GET", `/v1/accounts/${a.id}`, user);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body.data, a);
    const unnamed = await connect(user, { app: "slack", auth: { z: "1", a: "2" } });
    assert.equal(unnamed.name, "slack", "the name defaults to the app");
    assert.deepEqual(unnamed.auth_fields, ["z", "a"]);
    const filtered = await call("GET", `/v1/accounts/${a.id}?include=id,auth_fields`, user);
    assert.deepEqual(filtered.body.data, { id: a.id, auth_fields: a.auth_fields });
  });

  it("PUT /accounts/{id}: a new name and/or auth; DELETE: {id, deleted: true}, then 404", async () => {
    const user = await t.newUser();
    const a = await connect(user, { app: "github", auth: { token: secret("old") } });
    const renamed = await call("PUT", `/v1/accounts/${a.id}`, user, { name: "renamed" });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual({ ...renamed.body.data, updated_at: 0 }, { ...a, name: "renamed", updated_at: 0 });
    const newToken = secret("new");
    secrets.push(newToken);
    const rotated = await call("PUT", `/v1/accounts/${a.id}`, user, { auth: { api_key: newToken, region: "eu" } });
    assert.equal(rotated.status, 200, rotated.text);
    assert.equal(rotated.body.data.name, "renamed");
    assert.equal(rotated.body.data.app, "github");
    assert.deepEqual(rotated.body.data.auth_fields, ["api_key", "region"]);
    assert.ok(rotated.body.data.updated_at >= a.updated_at);

    const del = await call("DELETE", `/v1/accounts/${a.id}`, user);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { data: { id: a.id, deleted: true } });
    for (const [method, body] of [["GET"], ["PUT", { name: "x" }], ["DELETE"]] as const) {
      assertErrorEnvelope(await call(method, `/v1/accounts/${a.id}`, user, body), 404, "not_found");
    }
    assertErrorEnvelope(await call("GET", "/v1/accounts/apn_doesnotexist000", user), 404, "not_found");
    assertErrorEnvelope(await call("GET", "/v1/accounts/nonsense", user), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/accounts/${a.id}`, { key: null }), 401, "unauthorized");
  });

  it("GET /users/me/accounts: the caller's only, newest first, paginated like the other lists", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const made = [];
    for (let i = 1; i <= 3; i++) made.push(await connect(user, { app: "github", name: `a${i}`, auth: { token: secret(`list${i}`) } }));
    await connect(other, { app: "github", name: "theirs", auth: { token: secret("theirs") } });
    const list = async (query = "") => {
      const res = await call("GET", `/v1/users/me/accounts${query}`, user);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    const all = await list();
    assert.deepEqual(all.data.map((a: any) => a.name), ["a3", "a2", "a1"]);
    assert.deepEqual(all.data[0], made[2]);
    assert.equal(all.page_info.total_count, 3);
    assert.equal(all.page_info.count, 3);
    const first = await list("?limit=2");
    assert.deepEqual(first.data.map((a: any) => a.name), ["a3", "a2"]);
    assert.deepEqual({ ...first.page_info, start_cursor: 0, end_cursor: 0 }, { total_count: 3, count: 2, start_cursor: 0, end_cursor: 0 });
    const second = await list(`?limit=2&after=${first.page_info.end_cursor}`);
    assert.deepEqual(second.data.map((a: any) => a.name), ["a1"]);
    assert.equal(second.page_info.start_cursor, second.page_info.end_cursor);
    const back = await list(`?limit=1&before=${second.page_info.start_cursor}`);
    assert.deepEqual(back.data.map((a: any) => a.name), ["a2"]);
    const empty = await list(`?after=${second.page_info.end_cursor}`);
    assert.deepEqual(empty.page_info, { total_count: 3, count: 0, start_cursor: "", end_cursor: "" });
    for (const q of ["limit=0", "limit=101", "after=%%%", "after=x&before=y"]) {
      assertErrorEnvelope(await call("GET", `/v1/users/me/accounts?${q}`, user), 400, "invalid_request");
    }
    const theirs = await call("GET", "/v1/users/me/accounts", other);
    assert.deepEqual(theirs.body.data.map((a: any) => a.name), ["theirs"]);
  });

  it("bad input is 400 invalid_request naming each problem, and creates or changes nothing", async () => {
    const user = await t.newUser();
    const cases: [unknown, string[]][] = [
      [{ auth: { a: "1" } }, ["app"]],
      [{ app: 42, auth: { a: "1" } }, ["app"]],
      [{ app: "", auth: { a: "1" } }, ["app"]],
      [{ app: "has space", auth: { a: "1" } }, ["app"]],
      [{ app: "github" }, ["auth"]],
      [{ app: "github", auth: "token" }, ["auth"]],
      [{ app: "github", auth: ["token"] }, ["auth"]],
      [{ app: "github", auth: null }, ["auth"]],
      [{ app: "github", auth: { a: "1" }, name: "x".repeat(201) }, ["name"]],
      [{ app: "github", auth: { a: "1" }, name: 7 }, ["name"]],
      [{ app: "github", auth: { a: "1" }, name: "  " }, ["name"]],
      [{ app: "github", auth: { a: "x".repeat(70_000) } }, ["auth"]],
      [{ app: "github", auth: { a: "1" }, owner: "me", token: "t" }, ["owner", "token"]],
      [{ name: 1, auth: 2 }, ["app", "auth", "name"]],
      [["github"], ["body"]],
    ];
    for (const [body, fields] of cases) {
      const res = await call("POST", "/v1/accounts", user, body);
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res).sort(), fields, `${JSON.stringify(body).slice(0, 80)}: ${res.text.slice(0, 300)}`);
    }
    assertErrorEnvelope(await call("POST", "/v1/accounts", user), 400, "invalid_request");

    const a = await connect(user, { app: "github", name: "kept", auth: { token: secret("kept") } });
    const updates: [unknown, string[]][] = [
      [{}, ["body"]],
      [{ app: "gitlab" }, ["app"]],
      [{ auth: "x" }, ["auth"]],
      [{ name: "" }, ["name"]],
      [{ name: "ok", extra: true }, ["extra"]],
    ];
    for (const [body, fields] of updates) {
      const res = await call("PUT", `/v1/accounts/${a.id}`, user, body);
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res).sort(), fields, JSON.stringify(body));
    }
    const list = await call("GET", "/v1/users/me/accounts", user);
    assert.deepEqual(list.body.data, [a], "nothing was created or changed");
  });

  it("another user's account is 404 on GET, PUT and DELETE, and stays as it was", async () => {
    const owner = await t.newUser();
    const other = await t.newUser();
    const a = await connect(owner, { app: "github", name: "private", auth: { token: secret("private") } });
    for (const [method, body] of [["GET"], ["PUT", { name: "stolen" }], ["PUT", { auth: "bad" }], ["DELETE"]] as const) {
      const res = await call(method, `/v1/accounts/${a.id}`, other, body);
      assertErrorEnvelope(res, 404, "not_found");
      assert.ok(!res.text.includes("private"));
    }
    const still = await call("GET", `/v1/accounts/${a.id}`, owner);
    assert.deepEqual(still.body.data, a);
  });

  // ---- using one from a source -------------------------------------------------------------------

  it("an app prop with {authProvisionId}: the run sees the account's auth as $auth; a PUT reaches the next run", async () => {
    const user = await t.newUser();
    const first = { oauth_access_token: secret("first"), scope: "repo" };
    const a = await connect(user, { app: "github", auth: first });
    const created = await source(user, { github: { authProvisionId: a.id } });
    assert.equal(created.status, 200, created.text);
    const src = created.body.data;
    assert.deepEqual(src.configured_props, { github: { authProvisionId: a.id } }, "the reference is echoed, never the auth");
    const got = await call("GET", `/v1/sources/${src.id}`, user);
    assert.deepEqual(got.body.data.configured_props, { github: { authProvisionId: a.id } });
    const listed = await call("GET", "/v1/users/me/sources/", user);
    assert.deepEqual(listed.body.data[0].configured_props, { github: { authProvisionId: a.id } });

    assert.deepEqual(await runAndRead(user, src.id, 1), { auth: first, app: "github" });
    const second = { oauth_access_token: secret("second") };
    secrets.push(second.oauth_access_token);
    assert.equal((await call("PUT", `/v1/accounts/${a.id}`, user, { auth: second })).status, 200);
    assert.deepEqual(await runAndRead(user, src.id, 2), { auth: second, app: "github" }, "the next run has the new auth");

    // inline auth objects are still taken as they were
    const inline = await source(user, { github: { token: "inline" } });
    assert.equal(inline.status, 200, inline.text);
    assert.deepEqual(await runAndRead(user, inline.body.data.id, 1), { auth: { token: "inline" }, app: "github" });
  });

  it("an account the source can't use is 400 naming the prop: wrong app, another user's, missing, malformed", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const slack = await connect(user, { app: "slack", auth: { token: secret("slack") } });
    const theirs = await connect(other, { app: "github", auth: { token: secret("theirs") } });
    const cases: [unknown, RegExp][] = [
      [{ authProvisionId: slack.id }, /slack/],
      [{ authProvisionId: theirs.id }, /no connected account of yours/],
      [{ authProvisionId: "apn_doesnotexist000" }, /no connected account of yours/],
      [{ authProvisionId: "x".repeat(5000) }, /no connected account of yours/],
      [{ authProvisionId: 42 }, /authProvisionId/],
      [{ authProvisionId: slack.id, token: "mixed" }, /authProvisionId/],
      ["apn_x", /must be an object/],
    ];
    for (const [value, message] of cases) {
      const res = await source(user, { github: value });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res), ["configured_props.github"], res.text);
      assert.match(res.body.error.details[0].message, message);
    }
    const missing = await source(user, { github: { authProvisionId: "apn_doesnotexist000" } });
    const foreign = await source(user, { github: { authProvisionId: theirs.id } });
    assert.equal(foreign.body.error.details[0].message, missing.body.error.details[0].message, "another user's account reads as missing");
    const sources = await call("GET", "/v1/users/me/sources/", user);
    assert.equal(sources.body.page_info.total_count, 0, "no source was made");

    // an update is checked the same way
    const mine = await connect(user, { app: "github", auth: { token: secret("mine") } });
    const src = (await source(user, { github: { authProvisionId: mine.id } })).body.data;
    const bad = await call("PUT", `/v1/sources/${src.id}`, user, { configured_props: { github: { authProvisionId: theirs.id } } });
    assertErrorEnvelope(bad, 400, "invalid_request");
    assert.deepEqual(detailFields(bad), ["configured_props.github"]);
  });

  it("DELETE of an account in use is 409 naming the sources; once they are gone it is 200", async () => {
    const user = await t.newUser();
    const a = await connect(user, { app: "github", auth: { token: secret("used") } });
    const s1 = (await source(user, { github: { authProvisionId: a.id } })).body.data;
    const s2 = (await source(user, { github: { authProvisionId: a.id } })).body.data;
    const refused = await call("DELETE", `/v1/accounts/${a.id}`, user);
    assertErrorEnvelope(refused, 409, "conflict");
    assert.equal(refused.body.error.message, `account ${a.id} is used by sources ${s1.id}, ${s2.id}`);
    assert.equal((await call("GET", `/v1/accounts/${a.id}`, user)).status, 200, "the account stays");

    assert.equal((await call("DELETE", `/v1/sources/${s1.id}`, user)).status, 200);
    const still = await call("DELETE", `/v1/accounts/${a.id}`, user);
    assertErrorEnvelope(still, 409, "conflict");
    assert.equal(still.body.error.message, `account ${a.id} is used by source ${s2.id}`);
    // a source moved to inline auth no longer uses it
    const moved = await call("PUT", `/v1/sources/${s2.id}`, user, { configured_props: { github: { token: "inline" } } });
    assert.equal(moved.status, 200, moved.text);
    const del = await call("DELETE", `/v1/accounts/${a.id}`, user);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { data: { id: a.id, deleted: true } });
  });

  it("the auth is sealed at rest: no value is in the store's rows or files in clear", async () => {
    const user = await t.newUser();
    const token = secret("at-rest");
    const a = await connect(user, { app: "github", name: "rest-check", auth: { oauth_access_token: token } });
    await source(user, { github: { authProvisionId: a.id } });
    const rotated = secret("at-rest-rotated");
    await call("PUT", `/v1/accounts/${a.id}`, user, { auth: { oauth_access_token: rotated } });

    let stored: { auth: string; auth_fields: string; name: string };
    let everything: string;
    if (t.storeEnv.DATABASE_URL) {
      const c = new pg.Client({ connectionString: t.storeEnv.DATABASE_URL });
      await c.connect();
      stored = (await c.query("SELECT auth, auth_fields, name FROM accounts WHERE id = $1", [a.id])).rows[0];
      const rows = [];
      for (const table of ["accounts", "sources", "events", "inbox"]) rows.push((await c.query(`SELECT * FROM ${table}`)).rows);
      everything = JSON.stringify(rows);
      await c.end();
    } else {
      const file = join(t.dataDir, "tributary.db");
      const db = new Sqlite(file, { readonly: true });
      stored = db.prepare("SELECT auth, auth_fields, name FROM accounts WHERE id = ?").get(a.id) as typeof stored;
      db.close();
      // the database file and its write-ahead log, byte for byte
      everything = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("\n");
    }
    assert.equal(stored.name, "rest-check");
    assert.deepEqual(JSON.parse(stored.auth_fields), ["oauth_access_token"]);
    assert.match(stored.auth, /^enc:v1:/);
    assert.ok(everything.includes(a.id), "the rows read are the service's");
    for (const value of [token, rotated]) assert.ok(!everything.includes(value), "an auth value is in the store in clear");
  });
});

describe("the issue's smaller parts", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("GET /users/me carries orgs: [] (and the OpenAPI document says so)", async () => {
    const user = await t.newUser();
    const me = await t.request("GET", "/v1/users/me", { key: user.key });
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body.data.orgs, []);
    const doc = (await t.request("GET", "/v1/openapi.json")).body;
    const schema = doc.paths["/v1/users/me"].get.responses["200"].content["application/json"].schema;
    assert.equal(schema.properties.data.properties.orgs.type, "array");
    for (const [path, methods] of Object.entries({ "/v1/accounts": ["post"], "/v1/accounts/{id}": ["get", "put", "delete"], "/v1/users/me/accounts": ["get"] })) {
      for (const m of methods) assert.ok(doc.paths[path]?.[m], `${m} ${path} is in the OpenAPI document`);
    }
  });

  it("endpoint keys are lower-case and found whatever the case of the URL: sources", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const path = endpointPath(src);
    const key = path.split("/")[2];
    assert.match(key, /^[a-z0-9]{24,}$/, "a new key is lower-case");
    for (const [i, p] of [path, path.toUpperCase().replace("/HTTP/", "/http/"), `/http/${key.slice(0, 5).toUpperCase()}${key.slice(5)}/sub`].entries()) {
      const res = await t.request("POST", p, { key: null, body: { n: i } });
      assert.equal(res.status, 200, `${p}: ${res.text}`);
    }
    const events = await waitEvents(t, src.id, 3);
    assert.deepEqual(events.map((e) => e.event.body.n).sort(), [0, 1, 2]);
  });

  it("endpoint keys are found whatever the case of the URL: workflow http triggers", async () => {
    const code = "export default { async run({ steps, $ }) { $.send.emit({ raw_event: steps.trigger.event.body }) } }";
    const res = await t.request("POST", "/v1/workflows", { body: { name: "wf", steps: [{ name: "s", code }], trigger: { type: "http" } } });
    assert.equal(res.status, 200, res.text);
    const w = res.body.data;
    const key = new URL(w.trigger.endpoint_url).pathname.split("/")[2];
    assert.equal(key, key.toLowerCase());
    const sent = await t.request("POST", `/http/${key.toUpperCase()}`, { key: null, body: { who: "ada" } });
    assert.equal(sent.status, 200, sent.text);
    const items = await waitFor(async () => {
      const r = await t.request("GET", `/v1/workflows/${w.id}/event_summaries?expand=event`);
      return r.body.data.length > 0 ? r.body.data : undefined;
    }, 10_000, "the workflow's event");
    assert.deepEqual(items[0].event, { raw_event: { who: "ada" } });
  });

  it("a key stored with upper-case letters (made before) is still found by its exact text", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const legacy = "LegacyKey_" + Math.random().toString(36).slice(2);
    if (t.storeEnv.DATABASE_URL) {
      const c = new pg.Client({ connectionString: t.storeEnv.DATABASE_URL });
      await c.connect();
      await c.query("UPDATE sources SET endpoint_key = $1 WHERE id = $2", [legacy, src.id]);
      await c.end();
    } else {
      const db = new Sqlite(join(t.dataDir, "tributary.db"));
      db.prepare("UPDATE sources SET endpoint_key = ? WHERE id = ?").run(legacy, src.id);
      db.close();
    }
    const res = await t.request("POST", `/http/${legacy}`, { key: null, body: { legacy: true } });
    assert.equal(res.status, 200, res.text);
    assert.equal((await waitEvents(t, src.id, 1))[0].event.body.legacy, true);
  });

  const APPHOOK_SOURCE = `
  export default {
    props: {
      github: { type: "app", app: "github" },
      hook: { type: "$.interface.apphook", appProp: "github", eventNames: ["push"] },
    },
    run() { this.$emit({ hook: this.hook }); },
  };`;

  it("a $.interface.apphook prop is accepted, optional and listed; a run sees its definition", async () => {
    const saved = await t.request("POST", "/v1/components", { body: { component_code: APPHOOK_SOURCE } });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(
      saved.body.data.configurable_props.map((p: any) => [p.name, p.type]),
      [["github", "app"], ["hook", "$.interface.apphook"]],
    );
    const src = await createSource(t, APPHOOK_SOURCE, { configured_props: { github: { token: "t" } } });
    assert.deepEqual(src.configured_props, { github: { token: "t" } });
    assert.equal((await t.request("POST", `/v1/sources/${src.id}/run`)).status, 202);
    const [e] = await waitEvents(t, src.id, 1);
    assert.equal(e.event.hook.type, "$.interface.apphook", "the component sees the prop's definition");
    assert.equal(e.event.hook.appProp, "github");
    const hook = saved.body.data.configurable_props.find((p: any) => p.name === "hook");
    assert.deepEqual([hook.appProp, hook.eventNames], ["github", ["push"]]);
  });

  it("the apphook string shorthand is accepted too", async () => {
    const code = `export default { props: { hook: "$.interface.apphook" }, run() { this.$emit({ hook: this.hook }); } };`;
    const src = await createSource(t, code);
    assert.equal((await t.request("POST", `/v1/sources/${src.id}/run`)).status, 202);
    const [e] = await waitEvents(t, src.id, 1);
    assert.equal(e.event.hook.type, "$.interface.apphook");
  });
});
