import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, assertErrorEnvelope, detailFields, type TestApp } from "./helpers.ts";

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

const unique = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`;

test("GET /users/me returns every field of the spec with the key used", async () => {
  const res = await t.request("GET", "/v1/users/me");
  assert.equal(res.status, 200);
  assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/);
  const u = res.body.data;
  assert.match(u.id, /^u_[A-Za-z0-9_-]{8,22}$/);
  assert.equal(u.username, "admin");
  assert.equal(u.admin, true);
  assert.equal(u.api_key, t.adminKey);
  for (const f of ["daily_compute_time_quota", "daily_compute_time_used", "daily_invocations_quota", "daily_invocations_used"]) {
    assert.equal(typeof u[f], "number", f);
  }
});

test("missing, malformed and unknown keys are 401 unauthorized", async () => {
  assertErrorEnvelope(await t.request("GET", "/v1/users/me", { key: null }), 401, "unauthorized");
  assertErrorEnvelope(await t.request("GET", "/v1/users/me", { key: "nope" }), 401, "unauthorized");
  const basic = await t.request("GET", "/v1/users/me", { key: null, headers: { authorization: "Basic abc" } });
  assertErrorEnvelope(basic, 401, "unauthorized");
});

test("an admin creates a user whose returned api_key authenticates as that user", async () => {
  const username = unique("alice");
  const res = await t.request("POST", "/v1/users", { body: { username, email: `${username}@example.com` } });
  assert.equal(res.status, 200, res.text);
  const u = res.body.data;
  assert.match(u.id, /^u_[A-Za-z0-9_-]{8,22}$/);
  assert.equal(u.username, username);
  assert.equal(u.email, `${username}@example.com`);
  assert.equal(u.admin, false);
  assert.equal(typeof u.api_key, "string");
  assert.notEqual(u.api_key, t.adminKey);

  const me = await t.request("GET", "/v1/users/me", { key: u.api_key });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.data.id, u.id);
  assert.equal(me.body.data.username, username);
  assert.equal(me.body.data.admin, false);
  assert.equal(me.body.data.api_key, u.api_key);
});

test("an admin can create another admin, who can then manage users", async () => {
  const username = unique("boss");
  const res = await t.request("POST", "/v1/users", { body: { username, email: `${username}@example.com`, admin: true } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.admin, true);
  const other = unique("staff");
  const made = await t.request("POST", "/v1/users", {
    key: res.body.data.api_key,
    body: { username: other, email: `${other}@example.com` },
  });
  assert.equal(made.status, 200, made.text);
  assert.equal(made.body.data.admin, false);
});

test("a non-admin gets 403 forbidden on POST /users, GET /users and DELETE /users/:id", async () => {
  const user = await t.newUser();
  const victim = await t.newUser();
  const name = unique("sneaky");
  assertErrorEnvelope(
    await t.request("POST", "/v1/users", { key: user.key, body: { username: name, email: `${name}@example.com` } }),
    403,
    "forbidden",
  );
  assertErrorEnvelope(await t.request("GET", "/v1/users", { key: user.key }), 403, "forbidden");
  assertErrorEnvelope(await t.request("DELETE", `/v1/users/${victim.id}`, { key: user.key }), 403, "forbidden");
  // nothing happened: the victim still works and the refused user was not created
  assert.equal((await t.request("GET", "/v1/users/me", { key: victim.key })).status, 200);
  const all = await t.request("GET", "/v1/users?limit=100");
  assert.equal(all.status, 200);
  assert.ok(!all.body.data.some((u: { username: string }) => u.username === name));
});

test("POST /users without a username is 400 invalid_request naming the field", async () => {
  const res = await t.request("POST", "/v1/users", { body: { email: "nobody@example.com" } });
  assertErrorEnvelope(res, 400, "invalid_request");
  assert.ok(detailFields(res).includes("username"), res.text);
});

test("POST /users with a bad email is 400 invalid_request naming the field", async () => {
  const username = unique("bademail");
  const res = await t.request("POST", "/v1/users", { body: { username, email: "not-an-email" } });
  assertErrorEnvelope(res, 400, "invalid_request");
  assert.ok(detailFields(res).includes("email"), res.text);
});

test("POST /users with wrong field types is 400 invalid_request", async () => {
  assertErrorEnvelope(await t.request("POST", "/v1/users", { body: { username: 42, email: "x@example.com" } }), 400, "invalid_request");
  const username = unique("types");
  assertErrorEnvelope(
    await t.request("POST", "/v1/users", { body: { username, email: `${username}@example.com`, admin: "yes" } }),
    400,
    "invalid_request",
  );
});

test("POST /users with a username that is taken is 400 invalid_request", async () => {
  const username = unique("dup");
  const first = await t.request("POST", "/v1/users", { body: { username, email: `${username}@example.com` } });
  assert.equal(first.status, 200, first.text);
  const again = await t.request("POST", "/v1/users", { body: { username, email: `other-${username}@example.com` } });
  assertErrorEnvelope(again, 400, "invalid_request");
});

test("POST /users with a body that is not JSON is 400 invalid_request", async () => {
  const res = await t.request("POST", "/v1/users", { raw: "{username: nope", headers: { "content-type": "application/json" } });
  assertErrorEnvelope(res, 400, "invalid_request");
});

test("POST /users with a JSON body but another or no Content-Type is 415 unsupported_media_type", async () => {
  const username = unique("ctype");
  const json = JSON.stringify({ username, email: `${username}@example.com` });
  assertErrorEnvelope(
    await t.request("POST", "/v1/users", { raw: json, headers: { "content-type": "text/plain" } }),
    415,
    "unsupported_media_type",
  );
  assertErrorEnvelope(await t.request("POST", "/v1/users", { raw: json }), 415, "unsupported_media_type");
  // and nothing was created
  const all = await t.request("GET", "/v1/users?limit=100");
  assert.ok(!all.body.data.some((u: { username: string }) => u.username === username));
});

test("Content-Type application/json with a charset parameter is accepted", async () => {
  const username = unique("charset");
  const res = await t.request("POST", "/v1/users", {
    raw: JSON.stringify({ username, email: `${username}@example.com` }),
    headers: { "content-type": "application/json; charset=utf-8" },
  });
  assert.equal(res.status, 200, res.text);
});

test("GET /users is paginated newest first, without api keys, and the cursors walk every user once", async () => {
  const made = [await t.newUser(), await t.newUser(), await t.newUser()];

  const all = await t.request("GET", "/v1/users?limit=100");
  assert.equal(all.status, 200, all.text);
  const ids: string[] = all.body.data.map((u: { id: string }) => u.id);
  assert.equal(all.body.page_info.total_count, ids.length);
  assert.equal(all.body.page_info.count, ids.length);
  // newest first: the three just made lead the list, latest first
  assert.deepEqual(ids.slice(0, 3), made.map((u) => u.id).reverse());
  for (const u of all.body.data) {
    assert.equal(u.api_key, undefined, "listed users must not carry a key");
    assert.equal(typeof u.username, "string");
    assert.equal(typeof u.email, "string");
    assert.equal(typeof u.admin, "boolean");
  }

  const def = await t.request("GET", "/v1/users");
  assert.equal(def.body.page_info.count, Math.min(10, ids.length), "limit defaults to 10");

  const walked: string[] = [];
  let after = "";
  for (let i = 0; i < 100; i++) {
    const page = await t.request("GET", `/v1/users?limit=2&after=${encodeURIComponent(after)}`);
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.page_info.total_count, ids.length);
    assert.equal(page.body.page_info.count, page.body.data.length);
    if (page.body.data.length === 0) {
      assert.equal(page.body.page_info.start_cursor, "");
      assert.equal(page.body.page_info.end_cursor, "");
      break;
    }
    assert.ok(page.body.data.length <= 2);
    walked.push(...page.body.data.map((u: { id: string }) => u.id));
    after = page.body.page_info.end_cursor;
  }
  assert.deepEqual(walked, ids);

  assertErrorEnvelope(await t.request("GET", "/v1/users?limit=0"), 400, "invalid_request");
  assertErrorEnvelope(await t.request("GET", "/v1/users?limit=101"), 400, "invalid_request");
  assertErrorEnvelope(await t.request("GET", "/v1/users?after=not*a*cursor"), 400, "invalid_request");
});

test("rotating a key: the old key is 401, the new one works and /users/me shows it", async () => {
  const user = await t.newUser();
  const res = await t.request("POST", "/v1/users/me/api_key", { key: user.key });
  assert.equal(res.status, 200, res.text);
  const fresh = res.body.data.api_key;
  assert.equal(typeof fresh, "string");
  assert.notEqual(fresh, user.key);
  assert.equal(res.body.data.id, user.id);

  assertErrorEnvelope(await t.request("GET", "/v1/users/me", { key: user.key }), 401, "unauthorized");
  const me = await t.request("GET", "/v1/users/me", { key: fresh });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.data.id, user.id);
  assert.equal(me.body.data.api_key, fresh);
});

test("deleting a user revokes their key; a second delete and an unknown id are 404", async () => {
  const user = await t.newUser();
  assert.equal((await t.request("GET", "/v1/users/me", { key: user.key })).status, 200);

  const del = await t.request("DELETE", `/v1/users/${user.id}`);
  assert.equal(del.status, 200, del.text);

  assertErrorEnvelope(await t.request("GET", "/v1/users/me", { key: user.key }), 401, "unauthorized");
  assertErrorEnvelope(await t.request("DELETE", `/v1/users/${user.id}`), 404, "not_found");
  assertErrorEnvelope(await t.request("DELETE", "/v1/users/u_doesnotexist0000"), 404, "not_found");

  const all = await t.request("GET", "/v1/users?limit=100");
  assert.ok(!all.body.data.some((u: { id: string }) => u.id === user.id), "deleted user is not listed");
});
