import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { startApp, waitFor, type TestApp } from "./helpers.ts";
import { startRegistry, type LocalRegistry } from "./fixtures/npm-registry.ts";

// docs/writing-workflows.md: every ```json workflow=NAME block is created as written, triggered
// with its ```json event=NAME block, and must emit exactly its ```json emits=NAME block. The one
// ```js block is the action the page saves; `$ACTION` in a workflow stands for its id, and
// `$DATA_STORE` for a data store the test makes, `$RECEIVER` for a local server that takes
// $.send.http's requests (each example's requests must all reach it). npm
// packages come from a local registry of small stand-ins, never from the public one.

const PAGE = readFileSync(join(import.meta.dirname, "..", "docs", "writing-workflows.md"), "utf8");

function blocks(kind: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of PAGE.matchAll(new RegExp("^```json " + kind + "=(\\w+)\\n([\\s\\S]*?)^```", "gm"))) out.set(m[1], m[2]);
  return out;
}

const WORKFLOWS = blocks("workflow");
const EVENTS = blocks("event");
const EMITS = blocks("emits");
const RESPONDS = blocks("responds");
const ACTION = /^```js\n([\s\S]*?)^```/m.exec(PAGE)![1];

let t: TestApp;
let registry: LocalRegistry;
let actionId = "";
let dataStoreId = "";
let receiver: Server;
let receiverUrl = "";
const receivedPaths: string[] = [];

before(async () => {
  registry = await startRegistry([
    {
      name: "lodash",
      version: "4.17.21",
      files: { "index.js": `exports.chunk = (a, n) => { const out = []; for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n)); return out; };` },
    },
  ]);
  receiver = createServer((req, res) => {
    receivedPaths.push(req.url!);
    req.resume();
    res.end();
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  receiverUrl = `http://127.0.0.1:${port}`;
  t = await startApp({ TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: `${registry.hostPort},127.0.0.1:${port}` });
  const saved = await t.request("POST", "/v1/components", { body: { component_code: ACTION } });
  assert.equal(saved.status, 200, saved.text);
  actionId = saved.body.data.id;
  const store = await t.request("POST", "/v1/data_stores", { body: { name: "docs" } });
  assert.equal(store.status, 200, store.text);
  dataStoreId = store.body.data.id;
});
after(async () => {
  await t.close();
  await registry.close();
  receiver.close();
});

describe("docs/writing-workflows.md: every workflow example emits what the page says", () => {
  it("the page has its examples, each with an event and what it emits", () => {
    assert.ok(WORKFLOWS.size >= 4, `${WORKFLOWS.size} workflow examples`);
    for (const name of WORKFLOWS.keys()) {
      assert.ok(EVENTS.has(name), `an event for "${name}"`);
      assert.ok(EMITS.has(name), `what "${name}" emits`);
    }
  });

  for (const [name, body] of WORKFLOWS) {
    it(`"${name}"`, async () => {
      const created = await t.request("POST", "/v1/workflows", { body: JSON.parse(body.replaceAll("$ACTION", actionId).replaceAll("$DATA_STORE", dataStoreId).replaceAll("$RECEIVER", receiverUrl)) });
      assert.equal(created.status, 200, created.text);
      const w = created.body.data;
      const sent = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: JSON.parse(EVENTS.get(name)!) });
      assert.equal(sent.status, 200, sent.text);
      // with custom_response the reply is the run's: the page shows it
      if (RESPONDS.has(name)) assert.deepEqual(sent.body, JSON.parse(RESPONDS.get(name)!));
      const got = await waitFor(async () => {
        const errors = await t.request("GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`);
        if (errors.body.data.length > 0) throw new Error(`"${name}" failed: ${JSON.stringify(errors.body.data[0].event.error)}`);
        const events = await t.request("GET", `/v1/workflows/${w.id}/event_summaries?expand=event`);
        return events.body.data[0]?.event;
      }, 10_000, `an event of "${name}"`);
      assert.deepEqual(got.raw_event, JSON.parse(EMITS.get(name)!));
      // what the example sends reaches the receiver
      const paths = [...body.matchAll(/\$RECEIVER(\/[\w/-]*)/g)].map((m) => m[1]);
      for (const path of paths) await waitFor(async () => receivedPaths.includes(path!) || undefined, 10_000, `${path} received`);
    });
  }
});
