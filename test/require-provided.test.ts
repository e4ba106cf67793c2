import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createSource, serveFiles, startApp, waitEvents, waitFor, type FileServer, type TestApp } from "./helpers.ts";
import { startRegistry, type LocalRegistry } from "./fixtures/npm-registry.ts";

// `require` in an ES module step or component, as Pipedream's docs show it
// (`const axios = require("axios")` above `export default defineComponent(...)`): the modules the
// sandbox provides (axios, @pipedream/platform, crypto...) and Node's modules are handed over as
// `import` would, beside npm packages.

let t: TestApp;
let registry: LocalRegistry;
let web: FileServer;

before(async () => {
  registry = await startRegistry([{ name: "shout", version: "1.0.0", files: { "index.js": `module.exports = (s) => String(s).toUpperCase() + "!";` } }]);
  web = await serveFiles({ "/hello": "hello from the web" });
  t = await startApp({ TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: `${registry.hostPort},${web.hostPort}` });
});
after(async () => {
  await t.close();
  await registry.close();
  await web.close();
});

// only modules the sandbox provides: code that imports nothing else is otherwise run unbundled
const REQUIRES = `
const axios = require("axios");
const { axios: platformAxios, ConfigurationError } = require("@pipedream/platform");
const crypto = require("crypto");
const qs = require("querystring");
import importedAxios from "axios";
import * as platform from "@pipedream/platform";
const required = async ($) => ({
  sameAxios: axios === importedAxios, samePlatform: platformAxios === platform.axios && ConfigurationError === platform.ConfigurationError,
  fetched: (await axios.get("WEB/hello")).data, viaPlatform: await platformAxios($, { url: "WEB/hello" }),
  crypto: crypto.createHash("sha256").update("x").digest("hex"), qs: qs.stringify({ a: 1 }),
});
`;

const SHA256_OF_X = createHash("sha256").update("x").digest("hex");
const EXPECTED = { sameAxios: true, samePlatform: true, fetched: "hello from the web", viaPlatform: "hello from the web", crypto: SHA256_OF_X, qs: "a=1" };

const withWeb = (code: string) => code.replaceAll("WEB", web.origin);

/** creates a source from `code`, runs it once and gives its first event (or fails with its error) */
async function runSource(code: string) {
  const source = await createSource(t, code);
  assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
  const [first] = await Promise.race([
    waitEvents(t, source.id, 1),
    waitEvents(t, source.id, 1, "$errors").then((e) => Promise.reject(new Error(JSON.stringify(e[0].event)))),
  ]);
  return first.event;
}

describe("require() in ES module code", () => {
  it("a workflow step requires provided modules above export default, and runs", async () => {
    const user = await t.newUser();
    const step = withWeb(`${REQUIRES}
      export default defineComponent({ async run({ steps, $ }) { return await required($); } });`);
    const collect = `export default defineComponent({ async run({ steps, $ }) { $.send.emit({ raw_event: steps.required.$return_value }); } });`;
    const created = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: { name: "wf", trigger: { type: "http" }, steps: [{ name: "required", code: step }, { name: "collect", code: collect }] },
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
    const got = await waitFor(async () => {
      const errors = await t.request("GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`, { key: user.key });
      if (errors.body.data.length > 0) throw new Error(JSON.stringify(errors.body.data[0].event));
      const events = await t.request("GET", `/v1/workflows/${w.id}/event_summaries?expand=event`, { key: user.key });
      return events.body.data[0]?.event.raw_event;
    }, 10_000, "the workflow's event");
    assert.deepEqual(got, EXPECTED);
  });

  it("a source requires provided modules above export default, and runs", async () => {
    const got = await runSource(withWeb(`${REQUIRES}
      export default defineSource({ async run() { this.$emit(await required(this)); } });`));
    assert.deepEqual(got, EXPECTED);
  });

  it("Node's modules (node:crypto, events) and npm packages are required beside them", async () => {
    const got = await runSource(withWeb(`${REQUIRES}
      const nodeCrypto = require("node:crypto");
      const { EventEmitter } = require("events");
      const shout = require("shout");
      export default defineSource({ async run() {
        this.$emit({ ...(await required(this)), nodeCrypto: nodeCrypto.createHash("sha256").update("x").digest("hex"), ee: typeof EventEmitter, shout: shout("hi") });
      } });`));
    assert.deepEqual(got, { ...EXPECTED, nodeCrypto: SHA256_OF_X, ee: "function", shout: "HI!" });
  });
});
