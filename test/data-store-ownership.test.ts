import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, startApp, waitFor, type TestApp } from "./helpers.ts";

// A `data_store` prop names a store by id, and store ids are no secret (they stand in URLs,
// workflow JSON and logs): every save of a source or a workflow checks that each store a
// `data_store` prop names is the saver's, whatever the props held before, and every run checks
// again that the stores it opens are still there and the run's user's. The attack this closes:
// save `{dataStoreId: <someone else's>}` under an `object` prop (not checked), then change the
// prop's type to `data_store` keeping the value.

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

async function recordKeys(user: User, id: string): Promise<string[]> {
  const res = await call("GET", `/v1/data_stores/${id}/records?limit=100`, user);
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((r: { key: string }) => r.key);
}

/** a step whose prop `name` has `type`, writing "mine" into it when it is a store */
const step = (name: string, prop: string, type: string, value: unknown) => ({
  name,
  code: `export default defineComponent({ props: { ${prop}: { type: "${type}" } }, async run() {
    if (typeof this.${prop}?.set === "function") { await this.${prop}.set("mine", 1); return await this.${prop}.keys(); }
    return null;
  } });`,
  props: { [prop]: value },
});

const sourceCode = (type: string) =>
  `export default { props: { timer: "$.interface.timer", target: { type: "${type}" } }, async run() { await this.target.set("mine", 1); } };`;

async function runWorkflow(user: User, w: { id: string; trigger: { endpoint_url: string } }): Promise<any> {
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
  assert.equal(res.status, 200, res.text);
  return waitFor(async () => {
    const runs = (await call("GET", `/v1/workflows/${w.id}/runs`, user)).body.data;
    if (runs.length === 0 || ["running", "suspended"].includes(runs[0].status)) return undefined;
    return (await call("GET", `/v1/runs/${runs[0].id}?expand=steps`, user)).body.data;
  }, 15_000, "the run to end");
}

describe("data store ownership", () => {
  it("a source can't turn an object prop holding another user's store id into a data_store prop", async () => {
    const owner = await t.newUser();
    const attacker = await t.newUser();
    const theirs = await newStore(owner);
    const saved = await call("POST", "/v1/sources", attacker, { component_code: sourceCode("object"), configured_props: { target: { dataStoreId: theirs } } });
    assert.equal(saved.status, 200, saved.text);
    const id = saved.body.data.id;
    // the value kept from the stored props, and the value sent again: both refused
    for (const body of [{ component_code: sourceCode("data_store") }, { component_code: sourceCode("data_store"), configured_props: { target: { dataStoreId: theirs } } }]) {
      const swapped = await call("PUT", `/v1/sources/${id}`, attacker, body);
      assert.equal(swapped.status, 404, swapped.text);
      assertErrorEnvelope(swapped, 404, "not_found");
    }
    assert.deepEqual(await recordKeys(owner, theirs), []);
    // the same swap with a store of one's own goes through
    const mine = await newStore(attacker);
    const own = await call("POST", "/v1/sources", attacker, { component_code: sourceCode("object"), configured_props: { target: { dataStoreId: mine } } });
    const ownSwap = await call("PUT", `/v1/sources/${own.body.data.id}`, attacker, { component_code: sourceCode("data_store") });
    assert.equal(ownSwap.status, 200, ownSwap.text);
  });

  it("a workflow can't swap a prop's type, rename a prop or move it to another step to reach another user's store", async () => {
    const owner = await t.newUser();
    const attacker = await t.newUser();
    const theirs = await newStore(owner);
    const mine = await newStore(attacker);
    const create = await call("POST", "/v1/workflows", attacker, {
      name: "swap",
      trigger: { type: "http" },
      steps: [step("a", "held", "object", { dataStoreId: theirs }), step("b", "own", "data_store", { dataStoreId: mine })],
    });
    assert.equal(create.status, 200, create.text);
    const w = create.body.data;
    const attempts = {
      "type swapped": [step("a", "held", "data_store", { dataStoreId: theirs }), step("b", "own", "data_store", { dataStoreId: mine })],
      "prop renamed": [step("a", "renamed", "data_store", { dataStoreId: theirs }), step("b", "own", "data_store", { dataStoreId: mine })],
      "moved to another step": [step("a", "held", "object", { dataStoreId: theirs }), step("b", "own", "data_store", { dataStoreId: theirs })],
    };
    for (const [what, steps] of Object.entries(attempts)) {
      const res = await call("PUT", `/v1/workflows/${w.id}`, attacker, { name: "swap", trigger: { type: "http" }, steps });
      assert.equal(res.status, 404, `${what}: ${res.text}`);
      assertErrorEnvelope(res, 404, "not_found");
    }
    // the runs still write only the attacker's own store
    const run = await runWorkflow(attacker, w);
    assert.equal(run.status, "succeeded", JSON.stringify(run.steps));
    assert.deepEqual(await recordKeys(owner, theirs), []);
    assert.deepEqual(await recordKeys(attacker, mine), ["mine"]);
    // one's own store renamed and moved between steps is fine
    const ownMoves = await call("PUT", `/v1/workflows/${w.id}`, attacker, {
      name: "swap",
      trigger: { type: "http" },
      steps: [step("a", "renamed", "data_store", { dataStoreId: mine }), step("b", "other", "object", {})],
    });
    assert.equal(ownMoves.status, 200, ownMoves.text);
  });

  it("a run whose store was deleted fails saying so, and writes nothing", async () => {
    const user = await t.newUser();
    const ds = await newStore(user);
    const create = await call("POST", "/v1/workflows", user, { name: "gone", trigger: { type: "http" }, steps: [step("write", "store", "data_store", { dataStoreId: ds })] });
    assert.equal(create.status, 200, create.text);
    assert.equal((await runWorkflow(user, create.body.data)).status, "succeeded");
    assert.equal((await call("DELETE", `/v1/data_stores/${ds}`, user)).status, 200);
    const before = (await call("GET", `/v1/workflows/${create.body.data.id}/runs`, user)).body.data.length;
    const res = await t.request("POST", new URL(create.body.data.trigger.endpoint_url).pathname, { key: null, body: {} });
    assert.equal(res.status, 200, res.text);
    const failed = await waitFor(async () => {
      const runs = (await call("GET", `/v1/workflows/${create.body.data.id}/runs`, user)).body.data;
      if (runs.length <= before || ["running", "suspended"].includes(runs[0].status)) return undefined;
      return (await call("GET", `/v1/runs/${runs[0].id}?expand=steps`, user)).body.data;
    }, 15_000, "the second run to end");
    assert.equal(failed.status, "failed");
    assert.match(JSON.stringify(failed.steps[0].error), new RegExp(`data store ${ds} can't be opened`));
  });
});
