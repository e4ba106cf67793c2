import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, assertRecentSeconds, detailFields, startApp, waitFor, type TestApp } from "./helpers.ts";
import type { DataStoreOp } from "../src/store/port.ts";

// Data stores (Pipedream's `ds_` ids), black-box through the API: the stores, their records
// (keys as path segments, prefixes, pages, ttl), the limits, another user's ids and bad input;
// then the store's transactional writes (`apply`), which a run's commit will use, on the real store.

const STORE_FIELDS = ["created_at", "id", "keys", "name", "updated_at"];

interface User {
  id: string;
  key: string;
}

describe("data stores", () => {
  let t: TestApp;
  let ada: User;
  before(async () => {
    t = await startApp();
    ada = await t.newUser();
  });
  after(() => t.close());

  const call = (method: string, url: string, user: User, body?: unknown) => t.request(method, url, { key: user.key, body });
  const rec = (id: string, key: string) => `/v1/data_stores/${id}/records/${encodeURIComponent(key)}`;

  async function newStore(user: User, name = "store"): Promise<string> {
    const res = await call("POST", "/v1/data_stores", user, { name });
    assert.equal(res.status, 200, res.text);
    return res.body.data.id;
  }

  async function put(user: User, id: string, key: string, body: Record<string, unknown>) {
    const res = await call("PUT", rec(id, key), user, body);
    assert.equal(res.status, 200, res.text);
    return res.body.data as { key: string; value: unknown; expires_at_ms: number | null };
  }

  // ---- the stores ---------------------------------------------------------------------------------

  it("POST, GET, PUT (rename), GET /users/me/data_stores (paged), DELETE (its records too)", async () => {
    const user = await t.newUser();
    const created = await call("POST", "/v1/data_stores", user, { name: "  orders  " });
    assert.equal(created.status, 200, created.text);
    const s = created.body.data;
    assert.deepEqual(Object.keys(s).sort(), STORE_FIELDS);
    assert.match(s.id, /^ds_[A-Za-z0-9_-]{16}$/);
    assert.equal(s.name, "orders");
    assert.equal(s.keys, 0);
    assertRecentSeconds(s.created_at, "created_at");
    assert.equal(s.updated_at, s.created_at);
    assert.deepEqual((await call("GET", `/v1/data_stores/${s.id}`, user)).body.data, s);

    await put(user, s.id, "a", { value: 1 });
    await put(user, s.id, "b", { value: 2 });
    const renamed = await call("PUT", `/v1/data_stores/${s.id}`, user, { name: "orders v2" });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual({ ...renamed.body.data, updated_at: 0 }, { ...s, name: "orders v2", keys: 2, updated_at: 0 });
    assert.ok(renamed.body.data.updated_at >= s.updated_at);

    const second = await newStore(user, "second");
    const third = await newStore(user, "third");
    const first = await call("GET", "/v1/users/me/data_stores?limit=2", user);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.page_info.total_count, 3);
    assert.equal(first.body.page_info.count, 2);
    assert.deepEqual(first.body.data.map((d: { id: string }) => d.id), [third, second], "newest first");
    const next = await call("GET", `/v1/users/me/data_stores?limit=2&after=${first.body.page_info.end_cursor}`, user);
    assert.deepEqual(next.body.data, [{ ...renamed.body.data }]);
    assert.equal(next.body.data[0].keys, 2);

    const deleted = await call("DELETE", `/v1/data_stores/${s.id}`, user);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body.data, { id: s.id, deleted: true });
    assertErrorEnvelope(await call("GET", `/v1/data_stores/${s.id}`, user), 404, "not_found");
    assertErrorEnvelope(await call("GET", rec(s.id, "a"), user), 404, "not_found");
    assertErrorEnvelope(await call("DELETE", `/v1/data_stores/${s.id}`, user), 404, "not_found");
    assert.deepEqual(await t.app.store.dataStoreRecords.keys(s.id, Date.now()), [], "its records went with it");
    assert.equal((await call("GET", "/v1/users/me/data_stores", user)).body.page_info.total_count, 2);
  });

  // ---- records ------------------------------------------------------------------------------------

  it("PUT/GET/DELETE a record: any JSON value, overwritten in place, 404 once deleted", async () => {
    const id = await newStore(ada);
    for (const value of [null, 0, "text", [1, "two", { three: 3 }], { nested: { deep: [true, false, null] } }]) {
      assert.deepEqual(await put(ada, id, "k", { value }), { key: "k", value, expires_at_ms: null });
      assert.deepEqual((await call("GET", rec(id, "k"), ada)).body.data, { key: "k", value, expires_at_ms: null });
    }
    assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 1);
    const del = await call("DELETE", rec(id, "k"), ada);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body.data, { key: "k", deleted: true });
    assertErrorEnvelope(await call("GET", rec(id, "k"), ada), 404, "not_found");
    assertErrorEnvelope(await call("DELETE", rec(id, "k"), ada), 404, "not_found");
    assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 0);
  });

  it("GET .../records: key order, prefix, pages by after=<end_cursor> until an empty one", async () => {
    const id = await newStore(ada);
    const items = Array.from({ length: 25 }, (_, i) => `item/${String(i).padStart(2, "0")}`);
    for (const key of [...items].reverse()) await put(ada, id, key, { value: { key } });
    for (const key of ["item", "itel", "items", "other/1"]) await put(ada, id, key, { value: key });

    const seen: string[] = [];
    let after = "";
    for (let pageNo = 0; ; pageNo++) {
      const res = await call("GET", `/v1/data_stores/${id}/records?prefix=item%2F&limit=10${after ? `&after=${after}` : ""}`, ada);
      assert.equal(res.status, 200, res.text);
      const { page_info: info, data } = res.body;
      assert.equal(info.total_count, 25);
      assert.equal(info.count, data.length);
      if (data.length === 0) {
        assert.equal(pageNo, 3, "three pages of 10, 10 and 5, then an empty one");
        assert.deepEqual([info.start_cursor, info.end_cursor], ["", ""]);
        break;
      }
      for (const r of data) assert.deepEqual(r, { key: r.key, value: { key: r.key }, expires_at_ms: null });
      seen.push(...data.map((r: { key: string }) => r.key));
      after = info.end_cursor;
    }
    assert.deepEqual(seen, items);

    const all = await call("GET", `/v1/data_stores/${id}/records?limit=100`, ada);
    assert.equal(all.body.page_info.total_count, 29);
    assert.deepEqual(all.body.data.map((r: { key: string }) => r.key), ["itel", "item", ...items, "items", "other/1"]);
    const none = await call("GET", `/v1/data_stores/${id}/records?prefix=nothing`, ada);
    assert.deepEqual([none.body.page_info.total_count, none.body.data], [0, []]);
  });

  it("keys with '/', spaces, '%2F', '?', '#', unicode or 1 KiB of UTF-8 round-trip through the path", async () => {
    const id = await newStore(ada);
    const keys = ["a/b", "dir/", "/lead", "a b", "%2F", "100%", "q?x=1#frag", "ünïcødé ✓ 🎉", "+plus&amp;", "é".repeat(512), "x".repeat(1024)];
    for (const key of keys) {
      assert.equal((await put(ada, id, key, { value: key })).key, key);
      const got = await call("GET", rec(id, key), ada);
      assert.equal(got.status, 200, `${key}: ${got.text}`);
      assert.deepEqual(got.body.data, { key, value: key, expires_at_ms: null });
    }
    const listed = await call("GET", `/v1/data_stores/${id}/records?limit=100`, ada);
    assert.deepEqual(listed.body.data.map((r: { key: string }) => r.key).sort(), [...keys].sort());
    // a raw '/' is the same key as an encoded one
    assert.equal((await call("GET", `/v1/data_stores/${id}/records/a/b`, ada)).body.data.key, "a/b");
    const uni = await call("GET", `/v1/data_stores/${id}/records?prefix=${encodeURIComponent("ünï")}`, ada);
    assert.deepEqual(uni.body.data.map((r: { key: string }) => r.key), ["ünïcødé ✓ 🎉"]);
    for (const key of keys) assert.equal((await call("DELETE", rec(id, key), ada)).status, 200, key);
    assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 0);
  });

  it("ttl: expires_at_ms set; an expired record is gone from get, lists and counts; null clears; absent keeps", async () => {
    const id = await newStore(ada);
    await put(ada, id, "stays", { value: 1 });
    const before = Date.now();
    const short = await put(ada, id, "short", { value: "soon gone", ttl: 1 });
    assert.ok(short.expires_at_ms! >= before + 1000 && short.expires_at_ms! <= Date.now() + 1000, `expires_at_ms ${short.expires_at_ms}`);
    assert.equal((await call("GET", rec(id, "short"), ada)).status, 200);

    const long = await put(ada, id, "long", { value: "a", ttl: 3600 });
    assert.equal((await put(ada, id, "long", { value: "b" })).expires_at_ms, long.expires_at_ms, "no ttl: the expiry stays");
    assert.equal((await put(ada, id, "long", { value: "c", ttl: null })).expires_at_ms, null, "ttl null: no expiry");

    await waitFor(async () => (await call("GET", rec(id, "short"), ada)).status === 404, 10_000, "the record to expire");
    assertErrorEnvelope(await call("GET", rec(id, "short"), ada), 404, "not_found");
    const list = await call("GET", `/v1/data_stores/${id}/records`, ada);
    assert.deepEqual(list.body.data.map((r: { key: string }) => r.key), ["long", "stays"]);
    assert.equal(list.body.page_info.total_count, 2);
    assert.equal((await call("GET", `/v1/data_stores/${id}/records?prefix=sh`, ada)).body.page_info.total_count, 0);
    assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 2);
    assertErrorEnvelope(await call("DELETE", rec(id, "short"), ada), 404, "not_found");

    // the sweep removes the row for good; the counts stay right
    await put(ada, id, "short2", { value: 1, ttl: 1 });
    await waitFor(async () => (await call("GET", rec(id, "short2"), ada)).status === 404, 10_000, "the second record to expire");
    assert.ok((await t.app.core.dataStoreSweep.pass()) >= 1);
    assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 2);
    assert.equal((await put(ada, id, "short", { value: "again" })).expires_at_ms, null, "an expired key is new again: no expiry kept");
  });

  // ---- limits -------------------------------------------------------------------------------------

  it("a value over 256 KiB of JSON and a key over 1 KiB of UTF-8: 400 naming the field", async () => {
    const id = await newStore(ada);
    const atLimit = "x".repeat(256 * 1024 - 2); // with its quotes, 256 KiB of JSON
    assert.equal((await put(ada, id, "big", { value: atLimit })).value, atLimit);
    const over = await call("PUT", rec(id, "bigger"), ada, { value: atLimit + "x" });
    assertErrorEnvelope(over, 400, "invalid_request");
    assert.deepEqual(detailFields(over), ["value"]);

    for (const key of ["x".repeat(1025), "é".repeat(512) + "x"]) {
      for (const [method, body] of [["PUT", { value: 1 }], ["GET", undefined], ["DELETE", undefined]] as const) {
        const res = await call(method, rec(id, key), ada, body);
        assertErrorEnvelope(res, 400, "invalid_request");
        assert.deepEqual(detailFields(res), ["key"], `${method} ${key.length}`);
      }
    }
  });

  it("a new key past the store's most keys: 409 limit_reached; overwrites still work; expired keys don't count", async () => {
    const stores = t.app.core.dataStores;
    const id = await newStore(ada);
    stores.maxKeys = 3;
    try {
      for (const k of ["a", "b", "c"]) await put(ada, id, k, { value: k });
      const full = await call("PUT", rec(id, "d"), ada, { value: "d" });
      assertErrorEnvelope(full, 409, "limit_reached");
      assert.match(full.body.error.message, /full/);
      assertErrorEnvelope(await call("GET", rec(id, "d"), ada), 404, "not_found");
      assert.equal((await put(ada, id, "a", { value: "A" })).value, "A");
      assert.equal((await call("DELETE", rec(id, "b"), ada)).status, 200);
      await put(ada, id, "d", { value: "d", ttl: 1 });
      assertErrorEnvelope(await call("PUT", rec(id, "e"), ada, { value: "e" }), 409, "limit_reached");
      await waitFor(async () => (await call("PUT", rec(id, "e"), ada, { value: "e" })).status === 200, 10_000, "d to expire and e to fit");
      assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 3);

      // writers of one store take turns: 20 new keys at once into room for 3 leave exactly 3
      const racing = await newStore(ada);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call("PUT", rec(racing, `k${i}`), ada, { value: i })));
      assert.deepEqual(results.map((r) => r.status).sort(), [...Array(3).fill(200), ...Array(17).fill(409)]);
      const listed = await call("GET", `/v1/data_stores/${racing}/records`, ada);
      assert.deepEqual([listed.body.page_info.total_count, listed.body.data.length], [3, 3]);
      assert.equal((await call("GET", `/v1/data_stores/${racing}`, ada)).body.data.keys, 3);
    } finally {
      stores.maxKeys = 100_000;
    }
  });

  // ---- whose ----------------------------------------------------------------------------------------

  it("another user's ds_ id: 404 not_found on every endpoint, whatever the input; nothing changes", async () => {
    const eve = await t.newUser();
    const id = await newStore(ada, "ada's");
    await put(ada, id, "secret", { value: "ada's" });
    const long = "k".repeat(300); // a key past the router's parameter limit: the other route
    const attempts: Array<[string, string, unknown]> = [
      ["GET", `/v1/data_stores/${id}`, undefined],
      ["PUT", `/v1/data_stores/${id}`, { name: "eve's" }],
      ["PUT", `/v1/data_stores/${id}`, {}],
      ["DELETE", `/v1/data_stores/${id}`, undefined],
      ["GET", `/v1/data_stores/${id}/records`, undefined],
      ["GET", `/v1/data_stores/${id}/records?prefix=s&after=bogus`, undefined],
      ["GET", rec(id, "secret"), undefined],
      ["GET", rec(id, long), undefined],
      ["PUT", rec(id, "secret"), { value: "eve's" }],
      ["PUT", rec(id, long), { value: "eve's" }],
      ["PUT", rec(id, "secret"), { ttl: -1 }],
      ["DELETE", rec(id, "secret"), undefined],
      ["DELETE", rec(id, long), undefined],
      ["GET", "/v1/data_stores/ds_doesNotExist0000", undefined],
      ["GET", "/v1/data_stores/apn_notADataStore00/records", undefined],
    ];
    for (const [method, url, body] of attempts) assertErrorEnvelope(await call(method, url, eve, body), 404, "not_found");
    assert.equal((await call("GET", "/v1/users/me/data_stores", eve)).body.page_info.total_count, 0);
    const mine = await call("GET", `/v1/data_stores/${id}`, ada);
    assert.deepEqual([mine.body.data.name, mine.body.data.keys], ["ada's", 1]);
    assert.equal((await call("GET", rec(id, "secret"), ada)).body.data.value, "ada's");
  });

  // ---- bad input ----------------------------------------------------------------------------------

  it("bad input: 400 invalid_request with details naming each field", async () => {
    const id = await newStore(ada);
    const cases: Array<[string, string, unknown, string[]]> = [
      ["POST", "/v1/data_stores", {}, ["name"]],
      ["POST", "/v1/data_stores", { name: "" }, ["name"]],
      ["POST", "/v1/data_stores", { name: "   " }, ["name"]],
      ["POST", "/v1/data_stores", { name: "n".repeat(201) }, ["name"]],
      ["POST", "/v1/data_stores", { name: 7 }, ["name"]],
      ["POST", "/v1/data_stores", { name: "ok", colour: "red" }, ["colour"]],
      ["POST", "/v1/data_stores", [], ["body"]],
      ["PUT", `/v1/data_stores/${id}`, { name: null }, ["name"]],
      ["PUT", rec(id, "k"), {}, ["value"]],
      ["PUT", rec(id, "k"), { ttl: 60 }, ["value"]],
      ["PUT", rec(id, "k"), { value: 1, ttl: 0 }, ["ttl"]],
      ["PUT", rec(id, "k"), { value: 1, ttl: -5 }, ["ttl"]],
      ["PUT", rec(id, "k"), { value: 1, ttl: 1.5 }, ["ttl"]],
      ["PUT", rec(id, "k"), { value: 1, ttl: "60" }, ["ttl"]],
      ["PUT", rec(id, "k"), { value: 1, ttl: 10 * 365 * 86_400 + 1 }, ["ttl"]],
      ["PUT", rec(id, "k"), { value: 1, expires: 5 }, ["expires"]],
      ["PUT", rec(id, "k"), "just a string", ["body"]],
      ["PUT", rec(id, "x".repeat(2000)), { ttl: true }, ["key", "value", "ttl"]],
      ["GET", `/v1/data_stores/${id}/records?after=not-a-cursor`, undefined, ["after"]],
      ["GET", `/v1/data_stores/${id}/records?before=abc`, undefined, ["before"]],
      ["GET", `/v1/data_stores/${id}/records?prefix=${"p".repeat(1025)}`, undefined, ["prefix"]],
      ["GET", `/v1/data_stores/${id}/records?limit=0`, undefined, ["limit"]],
      ["GET", `/v1/data_stores/${id}/records?limit=101`, undefined, ["limit"]],
      ["GET", "/v1/users/me/data_stores?after=bogus", undefined, ["after"]],
    ];
    for (const [method, url, body, fields] of cases) {
      const res = await call(method, url, ada, body);
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res), fields, `${method} ${url.slice(0, 80)} ${JSON.stringify(body)?.slice(0, 80)}: ${res.text.slice(0, 300)}`);
    }
    assert.equal((await call("GET", `/v1/data_stores/${id}`, ada)).body.data.keys, 0, "nothing was written");
  });

  // ---- the store's transactional writes -------------------------------------------------------------

  it("store: apply runs set/ttl/delete/clear in order inside a transaction; a rollback leaves nothing", async () => {
    const store = t.app.store;
    const records = store.dataStoreRecords;
    const id = await newStore(ada);
    const now = Date.now();
    const apply = (ops: DataStoreOp[], maxKeys = 100_000) => store.transaction((tx) => tx.dataStoreRecords.apply(id, ops, now, maxKeys));
    const set = (key: string, value: unknown, expiresAtMs?: number | null): DataStoreOp => ({ op: "set", key, valueJson: JSON.stringify(value), expiresAtMs });
    const values = async () => Object.fromEntries([...(await records.getMany(id, await records.keys(id, now), now))].map(([k, r]) => [k, JSON.parse(r.value)]));

    assert.deepEqual(await apply([set("a", 1), set("b", 2), set("c", 3), { op: "delete", key: "b" }, set("a", 10)]), { found: true, refused: [], deleted: 1, keys: 2 });
    assert.deepEqual(await values(), { a: 10, c: 3 });
    assert.deepEqual(await apply([{ op: "delete", key: "a" }, set("a", 11), { op: "delete", key: "c" }, { op: "delete", key: "never" }]), { found: true, refused: [], deleted: 2, keys: 1 });
    assert.deepEqual(await values(), { a: 11 });

    // expiry: kept by a set without one, changed by ttl (live records only), cleared by null
    await apply([set("t", "x", now + 5000), set("t", "y"), { op: "ttl", key: "absent", expiresAtMs: now + 1 }]);
    assert.deepEqual(await records.get(id, "t", now), { key: "t", value: '"y"', expires_at_ms: now + 5000 });
    assert.equal(await records.get(id, "absent", now), undefined);
    await apply([{ op: "ttl", key: "t", expiresAtMs: now + 9000 }]);
    assert.equal((await records.get(id, "t", now))!.expires_at_ms, now + 9000);
    await apply([set("t", "z", null)]);
    assert.equal((await records.get(id, "t", now))!.expires_at_ms, null);

    // clear: everything before it goes, what follows it stays
    assert.deepEqual(await apply([set("gone", 1), { op: "clear" }, set("after", 2)]), { found: true, refused: [], deleted: 3, keys: 1 });
    assert.deepEqual(await values(), { after: 2 });
    assert.equal(await records.count(id, now), 1);

    // a rollback: the transaction's writes and the kept count are undone together
    await assert.rejects(
      store.transaction(async (tx) => {
        assert.equal((await tx.dataStoreRecords.apply(id, [set("x", 1), { op: "clear" }, set("y", 2), set("z", 3)], now, 100_000)).keys, 2);
        assert.deepEqual(await tx.dataStoreRecords.keys(id, now), ["y", "z"], "the transaction sees its own writes");
        throw new Error("the run failed");
      }),
      /the run failed/,
    );
    assert.deepEqual(await values(), { after: 2 });
    assert.equal(await records.count(id, now), 1);

    // most keys: the sets past it are refused and reported, the rest applied
    assert.deepEqual(await apply([set("after", 3), set("n1", 1), set("n2", 2), set("n3", 3)], 3), { found: true, refused: ["n3"], deleted: 0, keys: 3 });
    assert.deepEqual(await values(), { after: 3, n1: 1, n2: 2 });
    // a store that is gone: nothing written
    assert.deepEqual(await store.transaction((tx) => tx.dataStoreRecords.apply("ds_gone000000000000", [set("a", 1)], now, 10)), { found: false, refused: [], deleted: 0, keys: 0 });
  });

  it("store: expired records are left out of every read at their time, then purged and counted right", async () => {
    const store = t.app.store;
    const records = store.dataStoreRecords;
    const id = await newStore(ada);
    const now = Date.now();
    const later = now + 10_000;
    const set = (key: string, expiresAtMs: number | null): DataStoreOp => ({ op: "set", key, valueJson: "1", expiresAtMs });
    await store.transaction((tx) => tx.dataStoreRecords.apply(id, [set("p/old", now + 1000), set("p/new", null), set("q", now + 1000), set("r", now + 60_000)], now, 100));
    assert.equal(await records.count(id, now), 4);
    assert.equal(await records.count(id, later), 2);
    assert.equal(await records.count(id, later, "p/"), 1);
    assert.deepEqual(await records.keys(id, later), ["p/new", "r"]);
    assert.deepEqual((await records.page(id, { limit: 10, prefix: "p/" }, later)).map((r) => r.key), ["p/new"]);
    assert.deepEqual([...(await records.getMany(id, ["p/old", "p/new", "q"], later)).keys()], ["p/new"]);
    assert.equal(await records.get(id, "q", later), undefined);
    assert.equal((await store.dataStores.byId(id, later))!.keys, 2);
    assert.ok((await records.expiredStores(later, 100)).includes(id));
    assert.equal(await store.transaction((tx) => tx.dataStoreRecords.purge(id, later, 1)), 1, "bounded");
    assert.equal(await store.transaction((tx) => tx.dataStoreRecords.purge(id, later, 100)), 1);
    assert.ok(!(await records.expiredStores(later, 100)).includes(id));
    assert.equal(await records.count(id, later), 2);
    assert.equal(await records.count(id, now), 2, "the purged rows are gone for good");
  });

  it("deleting a user deletes their data stores and records", async () => {
    const gone = await t.newUser();
    const id = await newStore(gone);
    await put(gone, id, "k", { value: 1 });
    const del = await t.request("DELETE", `/v1/users/${gone.id}`);
    assert.equal(del.status, 200, del.text);
    assert.equal(await t.app.store.dataStores.byId(id, Date.now()), undefined);
    assert.equal(await t.app.store.dataStoreRecords.get(id, "k", Date.now()), undefined);
  });

  it("store: a prefix is a key range in UTF-8 byte order, the same on both databases", async () => {
    const store = t.app.store;
    const id = await newStore(ada);
    const now = Date.now();
    const keys = ["a", "ab", "ab\u{10FFFF}", "ab\u{10FFFF}z", "ac", "Ab", "é", "éa", "\u{FFFF}", "\u{1F600}", "\u{1F600}x", "\u{1F601}", "ẞ", "~"];
    await store.transaction((tx) => tx.dataStoreRecords.apply(id, keys.map((key) => ({ op: "set", key, valueJson: "0" })), now, 100));
    const codePointOrder = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual(await store.dataStoreRecords.keys(id, now), codePointOrder);
    const withPrefix = async (prefix: string) => (await store.dataStoreRecords.page(id, { limit: 100, prefix }, now)).map((r) => r.key);
    for (const prefix of ["a", "ab", "ab\u{10FFFF}", "é", "\u{1F600}", "\u{FFFF}", "A", "z"]) {
      assert.deepEqual(await withPrefix(prefix), codePointOrder.filter((k) => k.startsWith(prefix)), JSON.stringify(prefix));
    }
    const afterAb = await store.dataStoreRecords.page(id, { limit: 2, prefix: "a", afterKey: "ab" }, now);
    assert.deepEqual(afterAb.map((r) => r.key), ["ab\u{10FFFF}", "ab\u{10FFFF}z"]);
  });
});
