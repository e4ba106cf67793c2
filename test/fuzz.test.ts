import { test } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { runFuzz } from "../fuzz/run.ts";
import { startApp } from "./helpers.ts";

// A short run of the fuzzer (npm run fuzz runs 100,000): malformed and boundary requests to every
// operation, /http/* and the SSE route, over real HTTP. None may get a 5xx, an error body outside
// the envelope, a HEAD reply with a body, or no answer at all; and the service must still be up.

const REQUESTS = 3000;
const SEED = 20_251_122;

test(`${REQUESTS} fuzzed requests: no 5xx, every error in the envelope`, async () => {
  const t = await startApp();
  try {
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.http.server.address() as AddressInfo;
    const target = { host: "127.0.0.1", port, adminKey: t.adminKey, close: async () => {} };
    const { report, ms, healthy } = await runFuzz(target, { requests: REQUESTS, seed: SEED, concurrency: 8 });
    const summary = report.render({ seed: SEED, ms });
    assert.equal(report.total, REQUESTS);
    assert.equal(report.count("5xx"), 0, summary);
    assert.equal(report.failures, 0, summary);
    assert.ok(healthy, "GET /healthz did not answer 200 after the run");
  } finally {
    await t.close();
  }
});
