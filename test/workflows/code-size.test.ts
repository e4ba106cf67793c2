import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, detailFields, startApp, type TestApp } from "../helpers.ts";

// Too-large step code: a step over the per-step limit is a 400 naming it (steps[i].code); a body
// over the API's limit is a 413 naming the limit.

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(() => t.close());

const small = "export default { async run() { return 1; } };";
// a module of about `bytes` bytes: a comment that long
const sized = (bytes: number) => `${small}\n// ${"x".repeat(bytes)}`;

describe("step code size", () => {
  it("one step's code over 512 KiB: 400 naming steps[i].code and the limit", async () => {
    const user = await t.newUser();
    const steps = [{ name: "first", code: small }, { name: "pasted", code: sized(600 * 1024) }];
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "big", steps } });
    assertErrorEnvelope(res, 400, "invalid_request");
    assert.deepEqual(detailFields(res), ["steps[1].code"]);
    assert.match(res.body.error.message, /steps\[1\]\.code is \d+ bytes: a step's code is at most 524288 bytes \(512 KiB\)/);
  });

  it("a body over the API's 1 MiB: 413 naming the limit; a workflow save says what must fit", async () => {
    const user = await t.newUser();
    const steps = [{ name: "pasted", code: sized(1200 * 1024) }];
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "big", steps } });
    assertErrorEnvelope(res, 413, "payload_too_large");
    assert.match(res.body.error.message, /limit of 1 MiB \(1048576 bytes\)/);
    assert.match(res.body.error.message, /one step's code in 512 KiB/);
    const env = await t.request("PUT", "/v1/users/me/env/BIG", { key: user.key, body: { value: "x".repeat(1200 * 1024) } });
    assertErrorEnvelope(env, 413, "payload_too_large");
    assert.match(env.body.error.message, /limit of 1 MiB \(1048576 bytes\)$/);
  });
});
