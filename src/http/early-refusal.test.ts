import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { resolveConfig } from "../config.ts";
import { serverWithFirstLook } from "./connections.ts";
import { refuseEarly } from "./early-refusal.ts";

// The refusal made before Fastify routes a request, on the node:http server the app really uses
// (the app's own tests of the bound: test/backlog.test.ts).

describe("early refusal past the backlog bound", () => {
  const state = { full: false, refusal: "the service has 3 or more accepted runs waiting: try again shortly" };
  let server: Server;
  let base = "";
  before(async () => {
    server = serverWithFirstLook(resolveConfig({}).httpLimits, refuseEarly(state))((_req, res) => void res.end("routed"));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  it("refuses endpoint requests only while the backlog is full, with the envelope and Retry-After", async () => {
    const post = () => fetch(`${base}/http/abc/sub?x=1`, { method: "POST", body: "{}" });
    assert.equal(await (await post()).text(), "routed");
    state.full = true;
    const res = await post();
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "1");
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await res.json(), { error: { code: "overloaded", message: state.refusal } });
    // the same connection goes on serving (keep-alive), and other requests are Fastify's
    assert.equal(await (await fetch(`${base}/v1/sources`)).text(), "routed");
    assert.equal(await (await fetch(`${base}/http/abc`, { method: "OPTIONS" })).text(), "routed");
    assert.equal(await (await fetch(`${base}/https-not-an-endpoint`, { method: "POST" })).text(), "routed");
    state.full = false;
    assert.equal(await (await post()).text(), "routed");
  });
});
