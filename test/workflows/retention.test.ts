import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApp, waitFor, type TestApp } from "../helpers.ts";

// A workflow keeps its newest TRIBUTARY_RUN_RETENTION ended runs (docs/operations.md): older ones
// go, with their steps, as new runs start (checked every 64 new runs of a workflow on a node),
// whoever started them. Runs started by Run now (and replays, retries) start from the queue, not
// from a request, and were never trimmed.

const KEEP = 2;
const TRIM_EVERY = 64;

let t: TestApp;
before(async () => (t = await startApp({ TRIBUTARY_RUN_RETENTION: String(KEEP) })));
after(() => t.close());

describe("run retention", () => {
  it("runs started by Run now are trimmed to the newest TRIBUTARY_RUN_RETENTION too", async () => {
    const user = await t.newUser();
    const created = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: { name: "kept", trigger: { type: "http" }, steps: [{ name: "one", code: "export default { async run() { return 1; } };" }] },
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    // one at a time, each ended before the next: the trim at run TRIM_EVERY + 1 finds all before it ended
    const ids: string[] = [];
    for (let i = 0; i < TRIM_EVERY + 2; i++) {
      const started = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key, body: { event: { i } } });
      assert.equal(started.status, 202, started.text);
      const id = started.body.data.run_id as string;
      ids.push(id);
      await waitFor(async () => (await t.request("GET", `/v1/runs/${id}`, { key: user.key })).body.data?.status === "succeeded" || undefined, 10_000, `run ${i} to end`);
    }
    const list = (await t.request("GET", `/v1/workflows/${w.id}/runs?limit=100`, { key: user.key })).body.data as Array<{ id: string }>;
    // the trim at run 65's one step (which ended it, in the same commit) kept runs 64 and 65; 66 came after
    assert.deepEqual(list.map((r) => r.id), ids.slice(-KEEP - 1).reverse());
    assert.equal((await t.request("GET", `/v1/runs/${ids[0]}`, { key: user.key })).status, 404, "a trimmed run is gone");
  });
});
