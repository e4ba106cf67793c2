import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { startApp, waitFor, type TestApp } from "./helpers.ts";

// Errors the runner's own code throws for a component (here: data store writes past the run's
// output cap) reach the tenant with no path of the installation in them: not in the run's error,
// not in a stack the component catches and logs or returns.

const INSTALL_ROOT = resolve(import.meta.dirname, "..");

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

describe("errors shown to tenants", () => {
  it("carry no host path, thrown or caught", async () => {
    const user = await t.newUser();
    const call = (method: string, url: string, body?: unknown) => t.request(method, url, { key: user.key, body });
    const ds = (await call("POST", "/v1/data_stores", { name: "big" })).body.data.id;
    const fill = `const big = "x".repeat(200 * 1024); for (let i = 0; i < 1000; i++) await this.store.set("k" + i, big);`;
    const code = (body: string) => `export default defineComponent({ props: { store: { type: "data_store" } }, async run() { ${body} } });`;
    const created = await call("POST", "/v1/workflows", {
      name: "paths",
      trigger: { type: "http" },
      steps: [
        { name: "caught", code: code(`try { ${fill} } catch (e) { console.log(e.stack); return { stack: e.stack, message: e.message }; }`), props: { store: { dataStoreId: ds } } },
        { name: "thrown", code: code(fill), props: { store: { dataStoreId: ds } } },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
    const run = await waitFor(async () => {
      const runs = (await call("GET", `/v1/workflows/${w.id}/runs`)).body.data;
      if (runs.length === 0 || ["running", "suspended"].includes(runs[0].status)) return undefined;
      return (await call("GET", `/v1/runs/${runs[0].id}?expand=steps`)).body.data;
    }, 30_000, "the run to end");
    assert.equal(run.status, "failed");
    const [caught, thrown] = run.steps;
    assert.match(caught.return_value.message, /output would pass/);
    assert.match(thrown.error.message, /output would pass/);
    const shown = JSON.stringify(run) + JSON.stringify((await call("GET", `/v1/sources/${w.id}/event_summaries?expand=event`)).body);
    assert.ok(!shown.includes(INSTALL_ROOT), `an install path is shown: ${shown.slice(shown.indexOf(INSTALL_ROOT) - 200, shown.indexOf(INSTALL_ROOT) + 200)}`);
    assert.ok(!/runner-[0-9a-f]{16}\.cjs/.test(shown), "the runner's bundle file is named");
  });
});
