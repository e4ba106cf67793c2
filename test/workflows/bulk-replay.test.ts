import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, startApp, waitFor, type TestApp } from "../helpers.ts";

// Replaying many runs at once: those that failed (during an outage, say) in a time range, each as
// one replay would be; the rest untouched, another user's workflow a 404.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

const api = (user: User, method: string, path: string, body?: unknown) => t.request(method, path, { key: user.key, ...(body === undefined ? {} : { body }) });

describe("bulk replay", () => {
  it("replays the failed runs in a range, newest first, up to the limit; bad bodies and another user's workflow", async () => {
    const user = await t.newUser();
    const created = await api(user, "POST", "/v1/workflows", {
      name: "outage",
      trigger: { type: "http" },
      steps: [{ name: "s", code: `export default { async run({ steps }) { if (steps.trigger.event.body.fail && !steps.trigger.context.replay) throw new Error("the API was down"); return steps.trigger.event.body.i; } };` }],
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    for (let i = 0; i < 6; i++) assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { i, fail: i % 2 === 0 } })).status, 200);
    const first = await waitFor(async () => {
      const list = (await api(user, "GET", `/v1/workflows/${w.id}/runs?limit=100`)).body.data as any[];
      return list.length === 6 && list.every((r) => !["running", "suspended"].includes(r.status)) ? list : undefined;
    }, 15_000, "six runs to end");
    const failed = first.filter((r) => r.status === "failed");
    assert.equal(failed.length, 3);

    const limited = await api(user, "POST", `/v1/workflows/${w.id}/runs/replay`, { status: "failed", limit: 2 });
    assert.equal(limited.status, 202, limited.text);
    assert.equal(limited.body.data.matched, 3);
    assert.equal(limited.body.data.runs.length, 2);
    const since = Math.min(...failed.map((r) => r.started_at_ms));
    const ranged = await api(user, "POST", `/v1/workflows/${w.id}/runs/replay`, { since, until: since });
    assert.equal(ranged.status, 202, ranged.text);
    assert.equal(ranged.body.data.runs.length, 1, "only the run started in the range");
    const made = [...limited.body.data.runs, ...ranged.body.data.runs];
    const replays = await waitFor(async () => {
      const list = await Promise.all(made.map(async (id: string) => (await api(user, "GET", `/v1/runs/${id}`)).body.data));
      return list.every((r) => r.status === "succeeded") ? list : undefined;
    }, 15_000, "the replays to succeed");
    for (const r of replays) assert.ok(failed.some((f) => f.id === r.replay_of), "each is a replay of a failed run");

    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${w.id}/runs/replay`, { limit: 5000 }), 400, "invalid_request");
    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${w.id}/runs/replay`, { status: "bogus" }), 400, "invalid_request");
    assertErrorEnvelope(await api(user, "POST", `/v1/workflows/${w.id}/runs/replay`, { since: 10, until: 5 }), 400, "invalid_request");
    const other = await t.newUser();
    assertErrorEnvelope(await api(other, "POST", `/v1/workflows/${w.id}/runs/replay`, {}), 404, "not_found");
    const after = (await api(user, "GET", `/v1/workflows/${w.id}/runs?limit=100`)).body.data as any[];
    assert.equal(after.length, 6 + made.length, "nothing else was replayed");
  });
});
