import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { assertErrorEnvelope, detailFields, startApp, waitFor, type Reply, type TestApp } from "../helpers.ts";

// An `http_request` prop (Pipedream's "HTTP request configuration"), as helper_functions'
// send-http-request uses it: `this.httpRequest.execute()` sends the configured request through
// the sandbox's guarded fetch and gives back the response as axios would. A local server (allowed
// by TRIBUTARY_FETCH_ALLOW, as loopback otherwise isn't) records what arrives.

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** shaped like @pipedream/helper_functions' send-http-request action (our own fixture) */
const SEND_ACTION = `export default {
  key: "send-webhook", name: "Send webhook", version: "0.1.0", type: "action",
  props: { httpRequest: { type: "http_request", label: "HTTP Request Configuration", default: { method: "POST" } } },
  async run() {
    const res = await this.httpRequest.execute();
    return { status: res.status, data: res.data, type: res.headers["content-type"], hasConfig: "config" in res };
  },
};`;

/** emits what the steps before it returned */
const COLLECT = `export default { async run({ steps, $ }) { $.send.emit({ raw_event: steps }); } };`;

describe("http_request props", () => {
  let t: TestApp;
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];
  let user: { id: string; key: string };
  let actionId: string;
  const call = (method: string, url: string, body?: unknown): Promise<Reply> => t.request(method, url, { key: user.key, body });

  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
        const status = req.url?.startsWith("/missing") ? 404 : 200;
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ got: req.method, status }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
    user = await t.newUser();
    const saved = await call("POST", "/v1/components", { component_code: SEND_ACTION });
    assert.equal(saved.status, 200, saved.text);
    actionId = saved.body.data.id;
  });
  after(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** deploys a one-step workflow with this http_request value, triggers it, gives its step result or error */
  async function runWith(httpRequest: unknown): Promise<{ value?: any; error?: any }> {
    const created = await call("POST", "/v1/workflows", { name: "send", trigger: { type: "http" }, steps: [{ name: "send", component_id: actionId, props: { httpRequest } }, { name: "collect", code: COLLECT }] });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    assert.equal(res.status, 200, res.text);
    return waitFor(async () => {
      const errors = await call("GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`);
      if (errors.body.data.length > 0) return { error: errors.body.data[0].event.error };
      const events = await call("GET", `/v1/workflows/${w.id}/event_summaries?expand=event`);
      const steps = events.body.data[0]?.event.raw_event;
      return steps?.send ? { value: steps.send.$return_value } : undefined;
    }, 10_000, "the step's result");
  }

  it("Pipedream's form: method, headers and params as [{name, value}], a raw JSON body and basic auth arrive", async () => {
    seen.length = 0;
    const got = await runWith({
      url: `${origin}/hook?fixed=1`,
      method: "PUT",
      headers: [{ name: "X-Trace", value: "abc" }, { name: "X-Off", value: "no", disabled: true }],
      params: [{ name: "page", value: "2" }, { name: "q", value: "a b" }],
      body: { type: "raw", mode: "raw", contentType: "application/json", raw: '{"hello":"world"}' },
      auth: { type: "basic", username: "ada", password: "s3cret" },
    });
    assert.deepEqual(got.value, { status: 200, data: { got: "PUT", status: 200 }, type: "application/json", hasConfig: false });
    const [req] = seen;
    assert.equal(req.method, "PUT");
    assert.equal(req.path, "/hook?fixed=1&page=2&q=a+b");
    assert.equal(req.headers["x-trace"], "abc");
    assert.equal(req.headers["x-off"], undefined, "a disabled header is not sent");
    assert.equal(req.headers["content-type"], "application/json");
    assert.equal(req.headers.authorization, `Basic ${Buffer.from("ada:s3cret").toString("base64")}`);
    assert.deepEqual(JSON.parse(req.body), { hello: "world" });
  });

  it("plain objects for headers and params, a JSON body, bearer auth; fields as a form", async () => {
    seen.length = 0;
    const got = await runWith({ url: `${origin}/plain`, method: "post", headers: { "X-Kind": "plain" }, params: { n: 3 }, body: { a: [1, 2] }, auth: { type: "bearer", token: "tok-1" } });
    assert.equal(got.value?.status, 200, JSON.stringify(got));
    assert.equal(seen[0].path, "/plain?n=3");
    assert.equal(seen[0].headers["x-kind"], "plain");
    assert.equal(seen[0].headers.authorization, "Bearer tok-1");
    assert.deepEqual(JSON.parse(seen[0].body), { a: [1, 2] });

    seen.length = 0;
    const form = await runWith({
      url: `${origin}/form`, method: "POST",
      body: { mode: "fields", contentType: "application/x-www-form-urlencoded", fields: [{ name: "x", value: "1" }, { name: "y", value: "two" }] },
    });
    assert.equal(form.value?.status, 200, JSON.stringify(form));
    assert.equal(seen[0].headers["content-type"], "application/x-www-form-urlencoded");
    assert.equal(seen[0].body, "x=1&y=two");
  });

  it("a status outside 2xx throws as axios does", async () => {
    const got = await runWith({ url: `${origin}/missing`, method: "GET" });
    assert.ok(got.error, JSON.stringify(got));
    assert.match(got.error.msg, /Request failed with status code 404/);
    assert.equal(got.error.code, "ERR_BAD_REQUEST");
  });

  it("a value that can't be sent is refused at save, field by field", async () => {
    const save = (httpRequest: unknown) => call("POST", "/v1/workflows", { name: "bad", steps: [{ name: "send", component_id: actionId, props: { httpRequest } }] });
    const cases: [unknown, string[]][] = [
      ["https://example.com", ["steps[0].props.httpRequest"]],
      [{ method: "GET" }, ["steps[0].props.httpRequest.url"]],
      [{ url: "ftp://example.com/x" }, ["steps[0].props.httpRequest.url"]],
      [{ url: "https://example.com", method: "FETCH" }, ["steps[0].props.httpRequest.method"]],
      [{ url: "https://example.com", headers: [{ value: "x" }] }, ["steps[0].props.httpRequest.headers[0]"]],
      [{ url: "https://example.com", params: { a: { b: 1 } } }, ["steps[0].props.httpRequest.params"]],
      [{ url: "https://example.com", auth: { type: "bearer" } }, ["steps[0].props.httpRequest.auth.token"]],
      [{ url: "https://example.com", auth: { type: "digest" } }, ["steps[0].props.httpRequest.auth.type"]],
      [{ url: "https://example.com", body: { mode: "fields", fields: "x" } }, ["steps[0].props.httpRequest.body.fields"]],
      [{ url: "https://example.com", timeout: 5 }, ["steps[0].props.httpRequest.timeout"]],
    ];
    for (const [value, fields] of cases) {
      const r = await save(value);
      assertErrorEnvelope(r, 400, "invalid_request");
      assert.deepEqual(detailFields(r), fields, JSON.stringify(value));
    }
    // its default ({method: "POST"}) stands when nothing is configured; execute() then says what is missing
    const unset = await call("POST", "/v1/workflows", { name: "unset", trigger: { type: "http" }, steps: [{ name: "send", component_id: actionId }] });
    assert.equal(unset.status, 200, unset.text);
  });

  it("the address guard still applies: a loopback address not allowed is refused", async () => {
    const got = await runWith({ url: "http://127.0.0.2:9/x", method: "GET" });
    assert.ok(got.error, JSON.stringify(got));
    assert.match(got.error.msg, /loopback or private address .* not allowed/);
  });
});
