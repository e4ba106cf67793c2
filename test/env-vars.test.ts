import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { assertErrorEnvelope, assertRecentSeconds, createSource, detailFields, eventsOf, waitFor, type Reply, type TestApp, startApp } from "./helpers.ts";
import { clusterSkip, startCluster, type Cluster } from "./cluster-nodes.ts";

// Users' environment variables, black-box through the API: managing them, their values sealed at
// rest and a secret's never shown, and `process.env` in sources and workflow steps holding
// exactly the owner's variables (never the service's own environment), changes seen by the next
// run. Also the Node globals every component has without importing anything.

interface User {
  id: string;
  key: string;
}

/** values unique to one test, so a leak can be searched for as text */
const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2)}-VALUE`;

/** a source (no imports) whose run emits what process.env holds, and what it held at load */
const ENV_SOURCE = `
const atLoad = process.env.LOADED;
export default {
  key: "env-echo",
  name: "Env echo",
  version: "0.1.0",
  props: {},
  run(event) {
    const env = { ...process.env };
    // written in this run only: the next run must not see it
    process.env.WRITTEN = 1;
    this.$emit({ env, keys: Object.keys(process.env).sort(), atLoad, written: process.env.WRITTEN, event });
  },
};`;

describe("environment variables", () => {
  let t: TestApp;
  /** every response body seen, to check at the end that no secret value was ever sent back */
  const seen: string[] = [];
  const secrets: string[] = [];
  before(async () => (t = await startApp()));
  after(async () => {
    for (const s of secrets) for (const text of seen) assert.ok(!text.includes(s), `a secret value was sent back: ${text.slice(0, 300)}`);
    await t.close();
  });

  async function call(method: string, url: string, user: User, body?: unknown): Promise<Reply> {
    const res = await t.request(method, url, { key: user.key, body });
    seen.push(res.text);
    return res;
  }

  async function put(user: User, name: string, body: Record<string, unknown>) {
    if (body.secret === true && typeof body.value === "string") secrets.push(body.value);
    const res = await call("PUT", `/v1/users/me/env/${name}`, user, body);
    assert.equal(res.status, 200, res.text);
    return res.body.data as { name: string; secret: boolean; value?: string; updated_at: number };
  }

  const list = async (user: User) => {
    const res = await call("GET", "/v1/users/me/env", user);
    assert.equal(res.status, 200, res.text);
    return res.body.data as Array<{ name: string; secret: boolean; value?: string; updated_at: number }>;
  };

  /** runs the source now and returns what its newest run emitted */
  async function runAndRead(user: User, sourceId: string, n: number, event?: unknown) {
    const res = await call("POST", `/v1/sources/${sourceId}/run`, user, event === undefined ? undefined : { event });
    assert.equal(res.status, 202, res.text);
    // done once it emitted, or failed (its error is then the assertion's message)
    const events = await waitFor(async () => {
      const errors = await eventsOf(t, sourceId, "$errors", user.key);
      assert.deepEqual(errors.map((e) => e.event.error), []);
      const got = await eventsOf(t, sourceId, "", user.key);
      return got.length >= n ? got : undefined;
    }, 10_000, `${n} events of ${sourceId}`);
    return events[0].event;
  }

  // ---- managing ---------------------------------------------------------------------------------

  it("PUT creates and replaces, GET lists by name, DELETE removes (404 when absent)", async () => {
    const user = await t.newUser();
    assert.deepEqual(await list(user), []);
    const b = await put(user, "b_VAR", { value: "two" });
    assert.deepEqual(Object.keys(b).sort(), ["name", "secret", "updated_at", "value"]);
    assert.equal(b.name, "b_VAR");
    assert.equal(b.secret, false);
    assert.equal(b.value, "two");
    assertRecentSeconds(b.updated_at, "updated_at");
    await put(user, "A", { value: "" });
    await put(user, "_x9", { value: "é ✓ \u0000 nul" });
    await put(user, "B", { value: "upper" });
    assert.deepEqual((await list(user)).map((v) => [v.name, v.value]), [["A", ""], ["B", "upper"], ["_x9", "é ✓ \u0000 nul"], ["b_VAR", "two"]], "by name, case-sensitive");

    const replaced = await put(user, "b_VAR", { value: "three" });
    assert.equal(replaced.value, "three");
    assert.equal((await list(user)).find((v) => v.name === "b_VAR")?.value, "three");

    const del = await call("DELETE", "/v1/users/me/env/b_VAR", user);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { data: { name: "b_VAR", deleted: true } });
    assertErrorEnvelope(await call("DELETE", "/v1/users/me/env/b_VAR", user), 404, "not_found");
    assertErrorEnvelope(await call("DELETE", "/v1/users/me/env/NEVER_SET", user), 404, "not_found");
    assert.deepEqual((await list(user)).map((v) => v.name), ["A", "B", "_x9"]);
  });

  it("a secret's value is never returned: not by PUT, not in the list; it stays secret when replaced without `secret`", async () => {
    const user = await t.newUser();
    const token = unique("token");
    const made = await put(user, "API_TOKEN", { value: token, secret: true });
    assert.deepEqual(made, { name: "API_TOKEN", secret: true, updated_at: made.updated_at });
    const rotated = unique("rotated");
    const again = await put(user, "API_TOKEN", { value: rotated });
    assert.equal(again.secret, true, "a replace without `secret` keeps it");
    assert.equal("value" in again, false);
    assert.deepEqual(await list(user), [{ name: "API_TOKEN", secret: true, updated_at: again.updated_at }]);
    // include= can't bring it back either
    const filtered = await call("GET", "/v1/users/me/env?include=value,name", user);
    assert.deepEqual(filtered.body.data, [{ name: "API_TOKEN" }]);
    // made not secret by a PUT that gives a new value: only that value is shown
    const plain = await put(user, "API_TOKEN", { value: "now-public", secret: false });
    assert.equal(plain.value, "now-public");
    secrets.push(token, rotated);
  });

  it("names and values are checked: 400 invalid_request naming each field", async () => {
    const user = await t.newUser();
    for (const name of ["1ABC", "A-B", "a.b", "x".repeat(129), "%C3%A9"]) {
      const res = await call("PUT", `/v1/users/me/env/${name}`, user, { value: "v" });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res), ["name"], name);
      assertErrorEnvelope(await call("DELETE", `/v1/users/me/env/${name}`, user), 400, "invalid_request");
    }
    await put(user, "X".repeat(128), { value: "longest name" });
    // past what the router reads of a path segment, the edge refuses it first
    assertErrorEnvelope(await call("PUT", `/v1/users/me/env/${"x".repeat(300)}`, user, { value: "v" }), 414, "uri_too_long");
    const cases: Array<[unknown, string[]]> = [
      [{}, ["value"]],
      [{ value: 5 }, ["value"]],
      [{ value: null }, ["value"]],
      [{ value: "x".repeat(64 * 1024 + 1) }, ["value"]],
      [{ value: "é".repeat(32 * 1024 + 1) }, ["value"]],
      [{ value: "v", secret: "yes" }, ["secret"]],
      [{ value: "v", colour: "red" }, ["colour"]],
      [{ value: 1, secret: 1 }, ["value", "secret"]],
    ];
    for (const [body, fields] of cases) {
      const res = await call("PUT", "/v1/users/me/env/GOOD", user, body);
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res).sort(), fields.sort(), JSON.stringify(body).slice(0, 80));
    }
    const both = await call("PUT", "/v1/users/me/env/9bad", user, { value: 1 });
    assert.deepEqual(detailFields(both).sort(), ["name", "value"]);
    assertErrorEnvelope(await call("PUT", "/v1/users/me/env/GOOD", user, [1]), 400, "invalid_request");
    // exactly 64 KiB is fine
    await put(user, "BIG", { value: "x".repeat(64 * 1024) });
    assert.deepEqual((await list(user)).map((v) => v.name), ["BIG", "X".repeat(128)]);
  });

  it("at most 500 per user: the 501st is 409 limit_reached (even when sent together); replacing still works", async () => {
    const user = await t.newUser();
    const names = Array.from({ length: 499 }, (_, i) => `V${String(i).padStart(3, "0")}`);
    for (let i = 0; i < names.length; i += 50) {
      const batch = await Promise.all(names.slice(i, i + 50).map((n) => t.request("PUT", `/v1/users/me/env/${n}`, { key: user.key, body: { value: n } })));
      for (const r of batch) assert.equal(r.status, 200, r.text);
    }
    // one more fits: of five sent at once, exactly one lands
    const racing = await Promise.all(["R1", "R2", "R3", "R4", "R5"].map((n) => t.request("PUT", `/v1/users/me/env/${n}`, { key: user.key, body: { value: n } })));
    assert.deepEqual(racing.map((r) => r.status).sort(), [200, 409, 409, 409, 409], racing.map((r) => r.text).join("\n"));
    for (const r of racing.filter((x) => x.status === 409)) {
      assertErrorEnvelope(r, 409, "limit_reached");
      assert.match(r.body.error.message, /500/);
    }
    assert.equal((await list(user)).length, 500);
    assertErrorEnvelope(await call("PUT", "/v1/users/me/env/ONE_MORE", user, { value: "x" }), 409, "limit_reached");
    assert.equal((await put(user, "V000", { value: "replaced at the limit" })).value, "replaced at the limit");
    assert.equal((await call("DELETE", "/v1/users/me/env/V001", user)).status, 200);
    await put(user, "ONE_MORE", { value: "x" });
    assert.equal((await list(user)).length, 500);
    // another user's room is their own
    const other = await t.newUser();
    await put(other, "V001", { value: "mine" });
  });

  it("at most 256 KiB of names and values per user: 409 limit_reached at a create or an update that grows past it, naming the limit and the total", async () => {
    const user = await t.newUser();
    const max = 256 * 1024;
    const full = "x".repeat(64 * 1024);
    for (const name of ["A1", "A2", "A3"]) await put(user, name, { value: full });
    const used = 3 * (2 + full.length);
    // one byte more than fits, then exactly what fits
    const over = await call("PUT", "/v1/users/me/env/A4", user, { value: "y".repeat(max - used - 2 + 1) });
    assertErrorEnvelope(over, 409, "limit_reached");
    assert.match(over.body.error.message, new RegExp(`${max} bytes \\(256 KiB\\)`));
    assert.match(over.body.error.message, new RegExp(`total ${used} bytes now`));
    await put(user, "A4", { value: "y".repeat(max - used - 2) });
    // at the limit: a new one, or an update that grows a value, is refused; one that shrinks is fine
    assertErrorEnvelope(await call("PUT", "/v1/users/me/env/B", user, { value: "" }), 409, "limit_reached");
    const grown = await call("PUT", "/v1/users/me/env/A4", user, { value: "y".repeat(max - used - 2 + 1) });
    assertErrorEnvelope(grown, 409, "limit_reached");
    assert.match(grown.body.error.message, new RegExp(`total ${max} bytes now`));
    await put(user, "A1", { value: "short" });
    await put(user, "B", { value: "fits again" });
    // several at once can't pass it together
    const racing = await Promise.all(["R1", "R2", "R3"].map((n) => t.request("PUT", `/v1/users/me/env/${n}`, { key: user.key, body: { value: "z".repeat(30 * 1024) } })));
    assert.deepEqual(racing.map((r) => r.status).sort(), [200, 200, 409], racing.map((r) => r.text.slice(0, 200)).join("\n"));
    const total = (await list(user)).reduce((n, v) => n + v.name.length + Buffer.byteLength(v.value ?? ""), 0);
    assert.ok(total <= max, `${total} bytes`);
  });

  it("a user over the byte limit from before it keeps every variable in runs; only growth is refused", async () => {
    const user = await t.newUser();
    const envVars = t.app.core.envVars;
    const limit = envVars.maxBytes;
    const big = "b".repeat(8 * 1024);
    await put(user, "LOADED", { value: "l" });
    for (const name of ["OLD1", "OLD2", "OLD3"]) await put(user, name, { value: big });
    envVars.maxBytes = 4 * 1024;
    try {
      const src = await createSource(t, ENV_SOURCE, {}, user.key);
      const first = await runAndRead(user, src.id, 1);
      assert.deepEqual(Object.keys(first.env).sort(), ["LOADED", "OLD1", "OLD2", "OLD3"]);
      assert.equal(first.env.OLD3, big);
      const grow = await call("PUT", "/v1/users/me/env/OLD1", user, { value: `${big}+` });
      assertErrorEnvelope(grow, 409, "limit_reached");
      assert.match(grow.body.error.message, /4096 bytes \(4 KiB\)/);
      assertErrorEnvelope(await call("PUT", "/v1/users/me/env/NEW", user, { value: "n" }), 409, "limit_reached");
      // the same size or smaller: fine, and the next run sees it
      await put(user, "OLD1", { value: "c".repeat(big.length) });
      await put(user, "OLD2", { value: "shorter" });
      const second = await runAndRead(user, src.id, 2);
      assert.deepEqual([second.env.OLD1, second.env.OLD2, second.env.OLD3], ["c".repeat(big.length), "shorter", big]);
    } finally {
      envVars.maxBytes = limit;
    }
  });

  it("another user can't see, replace or delete them", async () => {
    const alice = await t.newUser();
    const bob = await t.newUser();
    const value = unique("alice");
    await put(alice, "SHARED_NAME", { value, secret: true });
    assert.deepEqual(await list(bob), []);
    assertErrorEnvelope(await call("DELETE", "/v1/users/me/env/SHARED_NAME", bob), 404, "not_found");
    await put(bob, "SHARED_NAME", { value: "bob's" });
    assert.deepEqual((await list(bob)).map((v) => v.value), ["bob's"]);
    assert.deepEqual(await list(alice), [{ name: "SHARED_NAME", secret: true, updated_at: (await list(alice))[0].updated_at }]);
  });

  it("values are sealed at rest, secret or not: no value is in the store's rows or files in clear", async () => {
    const user = await t.newUser();
    const plain = unique("plain");
    const secret = unique("secret");
    await put(user, "PLAIN", { value: plain });
    await put(user, "SECRET", { value: secret, secret: true });
    let rows: Array<{ name: string; value: string; secret: number }>;
    let everything: string;
    if (t.storeEnv.DATABASE_URL) {
      const c = new pg.Client({ connectionString: t.storeEnv.DATABASE_URL });
      await c.connect();
      rows = (await c.query("SELECT name, value, secret FROM env_vars WHERE user_id = $1 ORDER BY name", [user.id])).rows;
      everything = JSON.stringify((await c.query("SELECT * FROM env_vars")).rows);
      await c.end();
    } else {
      const file = join(t.dataDir, "tributary.db");
      const db = new Sqlite(file, { readonly: true });
      rows = db.prepare("SELECT name, value, secret FROM env_vars WHERE user_id = ? ORDER BY name").all(user.id) as typeof rows;
      db.close();
      everything = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("\n");
    }
    assert.deepEqual(rows.map((r) => [r.name, Number(r.secret)]), [["PLAIN", 0], ["SECRET", 1]]);
    for (const r of rows) assert.match(r.value, /^enc:v1:/);
    for (const v of [plain, secret]) assert.ok(!everything.includes(v), `${v} is in the store in clear`);
  });

  it("deleting a user deletes their variables", async () => {
    const user = await t.newUser();
    await put(user, "GONE_WITH_USER", { value: "x" });
    assert.equal((await t.request("DELETE", `/v1/users/${user.id}`)).status, 200);
    assert.deepEqual(await t.app.store.envVars.list(user.id), []);
  });

  // ---- in runs ----------------------------------------------------------------------------------

  it("a source's process.env holds exactly its owner's variables, none of the service's; a change is seen by the next run", async () => {
    const user = await t.newUser();
    const token = unique("token");
    await put(user, "LOADED", { value: "at load" });
    await put(user, "GREETING", { value: "hello" });
    await put(user, "TOKEN", { value: token, secret: true });
    const src = await createSource(t, ENV_SOURCE, {}, user.key);

    const first = await runAndRead(user, src.id, 1);
    assert.deepEqual(first.env, { GREETING: "hello", LOADED: "at load", TOKEN: token });
    assert.equal(first.atLoad, "at load", "the component's top level sees them too");
    assert.equal(first.written, "1", "assignments become strings, as in Node");
    for (const name of ["TRIBUTARY_ADMIN_KEY", "PATH", "HOME", "NODE_OPTIONS", "DATABASE_URL"]) assert.ok(!first.keys.includes(name), name);

    await put(user, "GREETING", { value: "hi again" });
    assert.equal((await call("DELETE", "/v1/users/me/env/TOKEN", user)).status, 200);
    await put(user, "ADDED", { value: "new" });
    const second = await runAndRead(user, src.id, 2);
    assert.deepEqual(second.env, { ADDED: "new", GREETING: "hi again", LOADED: "at load" }, "the change, and not the last run's own write");

    // the last one gone: a run sees an empty process.env (nothing is sent for a user with none)
    for (const name of ["ADDED", "GREETING", "LOADED"]) assert.equal((await call("DELETE", `/v1/users/me/env/${name}`, user)).status, 200);
    const third = await runAndRead(user, src.id, 3);
    assert.deepEqual(third.env, {});
    assert.deepEqual(third.keys, ["WRITTEN"]);

    // another user's source of the same code sees only its own owner's (none)
    const other = await t.newUser();
    await put(user, "ONLY_MINE", { value: "x" });
    const theirs = await createSource(t, ENV_SOURCE, {}, other.key);
    assert.deepEqual((await runAndRead(other, theirs.id, 1)).env, {});
  });

  it("a workflow step's process.env holds its owner's variables", async () => {
    const user = await t.newUser();
    await put(user, "WF_VAR", { value: "from env" });
    const code = `export default { async run({ steps, $ }) { $.send.emit({ raw_event: { env: { ...process.env }, b64: Buffer.from("wf").toString("base64") } }); } };`;
    const res = await call("POST", "/v1/workflows", user, { name: "env wf", steps: [{ name: "read", code }], trigger: { type: "none" } });
    assert.equal(res.status, 200, res.text);
    const id = res.body.data.id;
    const read = async (n: number) => {
      assert.equal((await call("POST", `/v1/workflows/${id}/run`, user, { event: {} })).status, 202);
      return waitFor(async () => {
        const r = await call("GET", `/v1/workflows/${id}/event_summaries?expand=event&limit=10`, user);
        return r.body.data.length >= n ? r.body.data[0].event.raw_event : undefined;
      }, 10_000, `${n} workflow events`);
    };
    assert.deepEqual(await read(1), { env: { WF_VAR: "from env" }, b64: "d2Y=" });
    await put(user, "WF_VAR", { value: "changed" });
    assert.deepEqual((await read(2)).env, { WF_VAR: "changed" });
  });

  it("Buffer, process and AbortController are there in a component that imports nothing (ESM and CommonJS)", async () => {
    const user = await t.newUser();
    await put(user, "K", { value: "v" });
    const body = `
      const ac = new AbortController();
      let heard = 0;
      ac.signal.addEventListener("abort", () => heard++);
      ac.abort();
      const ticked = await new Promise((resolve) => process.nextTick(resolve, "ticked"));
      this.$emit({
        b64: Buffer.from("x").toString("base64"), isBuffer: Buffer.isBuffer(Buffer.from("x")), hex: Buffer.from([1, 255]).toString("hex"),
        process: typeof process, env: process.env.K, node: process.versions.node, cwd: process.cwd(), ticked,
        hr: process.hrtime().length, aborted: ac.signal.aborted, reason: ac.signal.reason.name, heard,
        signal: AbortSignal.abort().aborted, onGlobalThis: typeof globalThis.Buffer,
      });`;
    const expected = { b64: "eA==", isBuffer: true, hex: "01ff", process: "object", env: "v", node: "24.0.0", cwd: "/", ticked: "ticked", hr: 2, aborted: true, reason: "AbortError", heard: 1, signal: true, onGlobalThis: "function" };
    const esm = await createSource(t, `export default { async run() { ${body} } };`, {}, user.key);
    assert.deepEqual(await runAndRead(user, esm.id, 1), expected);
    const cjs = await createSource(t, `module.exports = { async run() { ${body} } };`, {}, user.key);
    assert.deepEqual(await runAndRead(user, cjs.id, 1), expected);
    // neither was bundled for it: the globals are the sandbox's own
    for (const { id } of [esm, cjs]) {
      const row = (await t.app.store.sources.byId(id))!;
      assert.equal((await t.app.store.components.byId(row.component_id))?.bundle, null);
    }
  });

  it("a bundled component and the Node modules it imports share the one process.env", async () => {
    const user = await t.newUser();
    await put(user, "BUNDLED", { value: "yes" });
    const src = await createSource(
      t,
      `import nodeProcess from "node:process"; import { EventEmitter } from "node:events";
      export default { run() { const ac = new AbortController(); ac.abort("why");
        this.$emit({ same: nodeProcess === process && nodeProcess.env === process.env, env: { ...nodeProcess.env },
          ee: typeof EventEmitter, mode: process.env.NODE_ENV, reason: ac.signal.reason, shared: ac.signal instanceof globalThis.AbortSignal }); } };`,
      {},
      user.key,
    );
    assert.deepEqual(await runAndRead(user, src.id, 1), { same: true, env: { BUNDLED: "yes" }, ee: "function", mode: "production", reason: "why", shared: true });
    await put(user, "BUNDLED", { value: "still" });
    assert.deepEqual((await runAndRead(user, src.id, 2)).env, { BUNDLED: "still" });
  });
});

describe("environment variables on several nodes (PostgreSQL + Redis)", { skip: clusterSkip() }, () => {
  let c: Cluster;
  before(async () => (c = await startCluster(2)));
  after(async () => c?.close());

  it("a change made through one node is seen by the next run on the node that runs the source", async () => {
    const [a, b] = c.nodes;
    const src = await c.api(a, "POST", "/v1/sources", { component_code: ENV_SOURCE });
    assert.equal(src.status, 200, JSON.stringify(src.body));
    const id = src.body.data.id as string;
    const owner = await waitFor(() => c.ownerOf(id), 20_000, "an owner");
    const other = owner.id === a.id ? b : a;
    const runAndRead = async (n: number) => {
      assert.equal((await c.api(other, "POST", `/v1/sources/${id}/run`, {})).status, 202);
      return waitFor(async () => {
        const r = await c.db.query("select payload from events where emitter_id = $1 and event_name = '' order by ms desc, n desc", [id]);
        return r.rows.length >= n ? JSON.parse(r.rows[0].payload) : undefined;
      }, 20_000, `${n} events`);
    };
    assert.deepEqual((await runAndRead(1)).env, {}, "nothing yet, and now cached on the owner");
    // made through the node that doesn't run it: the owner's cache hears of it over the bus, not
    // from its 60 s expiry
    assert.equal((await c.api(other, "PUT", "/v1/users/me/env/CROSS", { value: "node" })).status, 200);
    assert.deepEqual((await runAndRead(2)).env, { CROSS: "node" });
    assert.equal((await c.api(other, "DELETE", "/v1/users/me/env/CROSS")).status, 200);
    assert.deepEqual((await runAndRead(3)).env, {});
  });
});
