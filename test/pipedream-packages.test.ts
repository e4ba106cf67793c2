import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createSource, endpointPath, startApp, waitEvents, type TestApp } from "./helpers.ts";
import { startRegistry, type LocalRegistry } from "./fixtures/npm-registry.ts";

// Causes found by running real @pipedream/* packages, each with a fixture of our own shaped like
// the code that failed (Pipedream's packages are never part of this repository).

/** checks a request body as got does before every request (the Shopify client's HTTP library) */
const GOT_LIKE = {
  name: "got-like",
  version: "1.0.0",
  files: {
    "index.js": `const fs = require("fs"); const stream = require("stream");
      module.exports = (body) => ({
        readStream: body instanceof fs.ReadStream, writeStream: body instanceof fs.WriteStream,
        stats: body instanceof fs.Stats, readable: body instanceof stream.Readable,
        made: (() => { const s = new fs.ReadStream("/tmp/none"); s.on("error", () => {}); return s instanceof stream.Readable ? "a Readable" : "not"; })(),
      });`,
  },
};

describe("real Pipedream packages' first causes", () => {
  let t: TestApp;
  let registry: LocalRegistry;

  before(async () => {
    registry = await startRegistry([GOT_LIKE]);
    t = await startApp({ TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
  });
  after(async () => {
    await t.close();
    await registry.close();
  });

  it("fs has the classes packages test values against (got's `body instanceof fs.ReadStream`): /tmp's real streams", async () => {
    const src = await createSource(t, `import check from "got-like";
      export default { async run() { this.$emit(check("body")); } };`);
    assert.equal((await t.request("POST", `/v1/sources/${src.id}/run`)).status, 202);
    const [got] = await waitEvents(t, src.id, 1);
    assert.deepEqual(got.event, { readStream: false, writeStream: false, stats: false, readable: false, made: "a Readable" });
  });

  it("a webhook secret its activate hook keeps in db signs the HTTP runs' check (createHmac gets the key)", async () => {
    const code = `import crypto from "crypto";
      export default {
        props: { db: "$.service.db", http: { type: "$.interface.http", customResponse: true } },
        hooks: {
          async activate() { this.db.set("secret", "whsec-" + this.http.endpoint.length); },
        },
        async run(event) {
          const secret = this.db.get("secret");
          const sig = crypto.createHmac("sha256", secret).update(event.bodyRaw).digest("hex");
          const ok = sig === event.headers["x-signature"];
          this.http.respond({ status: ok ? 200 : 401 });
          if (ok) this.$emit({ secret, body: event.body });
        },
      };`;
    const src = await createSource(t, code);
    const secret = `whsec-${src.configured_props.http.endpoint_url.length}`;
    const body = JSON.stringify({ n: 1 });
    const res = await t.request("POST", endpointPath(src), { key: null, body: JSON.parse(body), headers: { "x-signature": createHmac("sha256", secret).update(body).digest("hex") } });
    assert.equal(res.status, 200, res.text);
    const [got] = await waitEvents(t, src.id, 1);
    assert.deepEqual(got.event, { secret, body: { n: 1 } });
  });
});
