import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, detailFields, endpointPath, startApp, waitFor, type TestApp } from "./helpers.ts";

// `data_store` props (docs/writing-workflows.md, "Data stores") in workflow steps and sources, black-box through the API:
// Pipedream's methods; reads that see the invocation's own writes; writes that commit with the
// step (a failed step writes nothing, the next step and the next run read what committed); TTLs;
// bad values thrown inside the run; bad configuration and another user's ds_ refused at save.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

const call = (method: string, url: string, user: User, body?: unknown) => t.request(method, url, { key: user.key, body });

async function newStore(user: User): Promise<string> {
  const res = await call("POST", "/v1/data_stores", user, { name: "s" });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

async function records(user: User, id: string): Promise<Record<string, { value: unknown; expires_at_ms: number | null }>> {
  const res = await call("GET", `/v1/data_stores/${id}/records?limit=100`, user);
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries(res.body.data.map((r: any) => [r.key, { value: r.value, expires_at_ms: r.expires_at_ms }]));
}

async function workflow(user: User, steps: unknown[]): Promise<any> {
  const res = await call("POST", "/v1/workflows", user, { name: "ds", steps, trigger: { type: "http" } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** triggers the workflow and waits for the run to end; the run with its steps */
async function runOnce(user: User, w: any, body: unknown = {}): Promise<any> {
  const before = (await call("GET", `/v1/workflows/${w.id}/runs`, user)).body.data.length;
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });
  assert.equal(res.status, 200, res.text);
  return waitFor(async () => {
    const runs = (await call("GET", `/v1/workflows/${w.id}/runs`, user)).body.data;
    if (runs.length <= before || ["running", "suspended"].includes(runs[0].status)) return undefined;
    return (await call("GET", `/v1/runs/${runs[0].id}?expand=steps`, user)).body.data;
  }, 15_000, "the run to end");
}

const withStore = (body: string) => `export default defineComponent({ props: { store: { type: "data_store" } }, async run({ steps, $ }) { ${body} } });`;

describe("data_store props", () => {
  it("a step reads its own writes; they commit with the step; the next step and the next run read them", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    await call("PUT", `/v1/data_stores/${ds}/records/old`, user, { value: { n: 1 } });
    await call("PUT", `/v1/data_stores/${ds}/records/gone`, user, { value: "x" });
    const w = await workflow(user, [
      {
        name: "write",
        code: withStore(`
          const s = this.store;
          const before = { old: await s.get("old"), missing: await s.get("missing"), hasOld: await s.has("old") };
          const count = ((await s.get("count")) ?? 0) + 1;
          await s.set("count", count);
          await s.set("temp", { t: true }, { ttl: 3600 });
          await s.delete("gone");
          const after = { count: await s.get("count"), hasGone: await s.has("gone"), keys: (await s.keys()).sort() };
          const pairs = (await s.entries()).map(([k, v]) => k + "=" + JSON.stringify(v)).sort();
          const objects = (await s.entries()).map((e) => e.key).sort();
          return { before, after, pairs, objects };`),
        props: { store: { dataStoreId: ds } },
      },
      { name: "read", code: withStore(`return { count: await this.store.get("count"), temp: await this.store.get("temp") };`), props: { store: { dataStoreId: ds } } },
    ]);
    const run = await runOnce(user, w);
    assert.equal(run.status, "succeeded", JSON.stringify(run.steps));
    const [write, read] = run.steps;
    assert.deepEqual(write.return_value.before, { old: { n: 1 }, hasOld: true });
    assert.deepEqual(write.return_value.after, { count: 1, hasGone: false, keys: ["count", "old", "temp"] });
    assert.deepEqual(write.return_value.pairs, ['count=1', 'old={"n":1}', 'temp={"t":true}']);
    assert.deepEqual(write.return_value.objects, ["count", "old", "temp"]);
    assert.deepEqual(read.return_value, { count: 1, temp: { t: true } });

    const stored = await records(user, ds);
    assert.deepEqual(Object.keys(stored).sort(), ["count", "old", "temp"]);
    assert.equal(stored.count!.value, 1);
    assert.equal(stored.count!.expires_at_ms, null);
    const ttl = stored.temp!.expires_at_ms!;
    assert.ok(ttl > Date.now() + 3500_000 && ttl <= Date.now() + 3600_000, `temp expires in an hour: ${ttl}`);

    // the next run reads what the last one committed
    const second = await runOnce(user, w);
    assert.equal(second.steps[1].return_value.count, 2);
    assert.equal((await records(user, ds)).count!.value, 2);
  });

  it("a step that fails writes nothing; clear() and setTtl() commit; expired keys are never read", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    await call("PUT", `/v1/data_stores/${ds}/records/keep`, user, { value: 1 });
    const failing = await workflow(user, [
      { name: "fails", code: withStore(`await this.store.set("written", 1); await this.store.clear(); throw new Error("after writing");`), props: { store: { dataStoreId: ds } } },
    ]);
    const failed = await runOnce(user, failing);
    assert.equal(failed.status, "failed");
    assert.deepEqual(Object.keys(await records(user, ds)), ["keep"]);

    const w = await workflow(user, [
      {
        name: "clears",
        code: withStore(`
          await this.store.clear();
          const afterClear = { keep: await this.store.get("keep"), keys: await this.store.keys() };
          await this.store.set("a", 1, { ttl: 60 });
          await this.store.setTtl("a", null);
          await this.store.set("b", 2);
          await this.store.setTtl("b", 120);
          return afterClear;`),
        props: { store: { dataStoreId: ds } },
      },
    ]);
    const run = await runOnce(user, w);
    assert.equal(run.status, "succeeded", JSON.stringify(run.steps));
    assert.deepEqual(run.steps[0].return_value, { keys: [] });
    const stored = await records(user, ds);
    assert.deepEqual(Object.keys(stored).sort(), ["a", "b"]);
    assert.equal(stored.a!.expires_at_ms, null);
    assert.ok(stored.b!.expires_at_ms! > Date.now() + 100_000);
  });

  it("bad values throw inside the step, where code can catch them", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    const w = await workflow(user, [
      {
        name: "bad",
        code: withStore(`
          const out = {};
          const attempt = async (name, f) => { try { await f(); out[name] = "ok"; } catch (e) { out[name] = e.name + ": " + e.message; } };
          await attempt("undefined", () => this.store.set("k", undefined));
          await attempt("emptyKey", () => this.store.set("", 1));
          await attempt("bigKey", () => this.store.set("k".repeat(2000), 1));
          await attempt("bigValue", () => this.store.set("k", "v".repeat(300 * 1024)));
          await attempt("badTtl", () => this.store.set("k", 1, { ttl: -5 }));
          await attempt("fine", () => this.store.set("k", 1));
          return out;`),
        props: { store: { dataStoreId: ds } },
      },
    ]);
    const run = await runOnce(user, w);
    const out = run.steps[0].return_value;
    assert.match(out.undefined, /^TypeError: .*JSON/);
    assert.match(out.emptyKey, /^TypeError: .*must not be empty/);
    assert.match(out.bigKey, /^TypeError: .*1024 bytes/);
    assert.match(out.bigValue, /^RangeError: .*256 KiB/);
    assert.match(out.badTtl, /^RangeError: .*ttl/);
    assert.equal(out.fine, "ok");
    assert.deepEqual(Object.keys(await records(user, ds)), ["k"]);
  });

  it("an action written as Pipedream's (its app's propDefinition), and a source, use the prop", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    const action = `
      const app = { type: "app", app: "data_stores", propDefinitions: { dataStore: { type: "data_store", label: "Data Store" } } };
      export default {
        key: "ds-add-record", name: "Add record", version: "0.0.1", type: "action",
        props: { app, dataStore: { propDefinition: [app, "dataStore"] }, key: { type: "string" }, value: { type: "any" } },
        async run({ $ }) {
          const record = await this.dataStore.get(this.key);
          await this.dataStore.set(this.key, this.value);
          $.export("$summary", record ? "updated" : "added");
          return { key: this.key };
        },
      };`;
    const w = await workflow(user, [{ name: "add", code: action, props: { dataStore: { dataStoreId: ds }, key: "{{steps.trigger.event.body.k}}", value: "{{steps.trigger.event.body.v}}" } }]);
    const run = await runOnce(user, w, { k: "city", v: { name: "Oslo" } });
    assert.equal(run.status, "succeeded", JSON.stringify(run.steps));
    assert.deepEqual((await records(user, ds)).city!.value, { name: "Oslo" });

    const source = await call("POST", "/v1/sources", user, {
      component_code: `export default {
        props: { http: "$.interface.http", counts: { type: "data_store" } },
        async run(event) {
          const n = ((await this.counts.get("hits")) ?? 0) + 1;
          await this.counts.set("hits", n);
          this.$emit({ n });
        },
      };`,
      configured_props: { counts: { dataStoreId: ds } },
    });
    assert.equal(source.status, 200, source.text);
    // sent at once: a source's invocations run one after another, each reading what the last wrote
    // (it may not have committed yet when the next one reads)
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.request("POST", endpointPath(source.body.data), { key: null, body: {} })));
    assert.deepEqual(new Set(replies.map((r) => r.status)), new Set([200]));
    const emitted = await waitFor(async () => {
      const res = await call("GET", `/v1/sources/${source.body.data.id}/event_summaries?limit=50&expand=event`, user);
      return res.body.data.length === 20 ? res.body.data.map((e: any) => e.event.n).sort((a: number, b: number) => a - b) : undefined;
    }, 10_000, "20 events");
    assert.deepEqual(emitted, Array.from({ length: 20 }, (_, i) => i + 1));
    assert.equal((await records(user, ds)).hits!.value, 20);
  });

  it("bad configuration is refused at save: wrong shape, an expression, a missing prop; another user's ds_ is 404", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const theirs = await newStore(other);
    const mine = await newStore(user);
    const post = (props: unknown) => call("POST", "/v1/workflows", user, { name: "bad", steps: [{ name: "s", code: withStore("return 1"), props }], trigger: { type: "http" } });

    for (const props of [{ store: "ds_x" }, { store: { dataStoreId: mine, extra: 1 } }, { store: "{{steps.trigger.event.id}}" }, {}]) {
      const res = await post(props);
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.deepEqual(detailFields(res), ["steps[0].props.store"], JSON.stringify(props));
    }
    assertErrorEnvelope(await post({ store: { dataStoreId: theirs } }), 404, "not_found");
    assertErrorEnvelope(await post({ store: { dataStoreId: "ds_doesnotexist0000" } }), 404, "not_found");

    const source = await call("POST", "/v1/sources", user, {
      component_code: `export default { props: { timer: "$.interface.timer", s: { type: "data_store" } }, async run() {} };`,
      configured_props: { s: { dataStoreId: theirs } },
    });
    assertErrorEnvelope(source, 404, "not_found");
  });

  it("expiry is judged when each call is made: what the run reads is what its commit leaves", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    await call("PUT", `/v1/data_stores/${ds}/records/stored`, user, { value: "committed", ttl: 1 });
    const w = await workflow(user, [
      {
        name: "ttl",
        code: withStore(`
          const s = this.store;
          await s.set("kept", 1, { ttl: 1 });
          await s.setTtl("kept", null);
          await s.set("short", 2, { ttl: 1 });
          await new Promise((r) => setTimeout(r, 1200));
          await s.setTtl("short", 3600);
          await s.setTtl("stored", 3600);
          return { kept: await s.get("kept"), short: (await s.get("short")) ?? "gone", stored: (await s.get("stored")) ?? "gone", keys: (await s.keys()).sort() };`),
        props: { store: { dataStoreId: ds } },
      },
    ]);
    const run = await runOnce(user, w);
    assert.equal(run.status, "succeeded", JSON.stringify(run.steps));
    assert.deepEqual(run.steps[0].return_value, { kept: 1, short: "gone", stored: "gone", keys: ["kept"] });
    const stored = await records(user, ds);
    assert.deepEqual(Object.keys(stored), ["kept"]);
    assert.equal(stored.kept!.expires_at_ms, null);
  });

  it("thousands of calls at once; a store deleted later doesn't stop editing what uses it", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    const w = await workflow(user, [
      {
        name: "many",
        code: withStore(`
          await Promise.all(Array.from({ length: 3000 }, (_, i) => this.store.set("k" + i, i)));
          const read = await Promise.all(Array.from({ length: 3000 }, (_, i) => this.store.get("k" + i)));
          return read.reduce((a, b) => a + b, 0);`),
        props: { store: { dataStoreId: ds } },
      },
    ]);
    const run = await runOnce(user, w);
    assert.equal(run.status, "succeeded", JSON.stringify(run.steps[0].error));
    assert.equal(run.steps[0].return_value, (2999 * 3000) / 2);
    const listed = await call("GET", `/v1/data_stores/${ds}`, user);
    assert.equal(listed.body.data.keys, 3000);

    const source = await call("POST", "/v1/sources", user, {
      component_code: `export default { props: { timer: "$.interface.timer", s: { type: "data_store" } }, async run() { await this.s.set("tick", Date.now()); } };`,
      configured_props: { s: { dataStoreId: ds } },
    });
    assert.equal(source.status, 200, source.text);
    assert.equal((await call("DELETE", `/v1/data_stores/${ds}`, user)).status, 200);
    const renamed = await call("PUT", `/v1/sources/${source.body.data.id}`, user, { name: "renamed" });
    assert.equal(renamed.status, 200, renamed.text);
    const renamedWorkflow = await call("PUT", `/v1/workflows/${w.id}`, user, { name: "renamed", steps: w.steps, trigger: { type: "http" } });
    assert.equal(renamedWorkflow.status, 200, renamedWorkflow.text);
  });
});
