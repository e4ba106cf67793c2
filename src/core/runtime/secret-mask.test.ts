import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { MIN_SECRET_LENGTH, SecretMasks } from "./secret-mask.ts";

// The mask alone: which forms of a value it finds, and that it is built only when there is
// something to mask (a run with no secrets gets none).

describe("secret masks", () => {
  it("no secret long enough: no mask at all", () => {
    const masks = new SecretMasks();
    assert.equal(masks.of([]), undefined);
    assert.equal(masks.of([{ name: "PIN", value: "x".repeat(MIN_SECRET_LENGTH - 1) }], []), undefined);
  });

  it("the value raw, JSON-escaped, URL-encoded, base64 (alone or inside a longer base64 text)", () => {
    const value = `tok"en\\/+ é-123`;
    const mask = new SecretMasks().of([{ name: "T", value }])!;
    const r = "[redacted:T]";
    assert.equal(mask.text(`a ${value} b`), `a ${r} b`);
    assert.equal(mask.text(JSON.stringify({ v: value })), `{"v":"${r}"}`);
    assert.equal(mask.text(JSON.stringify(JSON.stringify({ v: value }))), `"{\\"v\\":\\"${r}\\"}"`);
    assert.equal(mask.text(`?q=${encodeURIComponent(value)}&x`), `?q=${r}&x`);
    assert.equal(mask.text(new URLSearchParams({ q: value }).toString()), `q=${r}`);
    assert.equal(mask.text(Buffer.from(value).toString("base64")), r);
    assert.equal(mask.text(Buffer.from(value).toString("base64url")), r);
    for (const user of ["u", "us", "use"]) {
      const basic = Buffer.from(`${user}:${value}`).toString("base64");
      assert.ok(mask.text(basic).includes(r), `Basic ${basic}`);
    }
  });

  it("each line of a multi-line value; the longest of two overlapping values wins", () => {
    const mask = new SecretMasks().of([
      { name: "KEY", value: "-----BEGIN KEY-----\nabcdefghij\n-----END KEY-----" },
      { name: "SHORTER", value: "abcdefgh" },
    ])!;
    assert.equal(mask.text("line abcdefghij"), "line [redacted:KEY]");
    assert.equal(mask.text("abcdefgh!"), "[redacted:SHORTER]!");
  });

  it("results: logs, errors and summaries masked, return values and exports kept", () => {
    const mask = new SecretMasks().of([{ name: "K", value: "s3cr3t-value" }])!;
    const result = mask.result({
      emits: [],
      db: null,
      logs: [{ level: "log", msg: "k=s3cr3t-value", ts: 1 }, { level: "log", msg: "plain", ts: 2 }],
      error: { name: "Error", message: "bad s3cr3t-value", stack: "Error: bad s3cr3t-value\n at x" },
      emitErrors: [{ name: "E", message: "s3cr3t-value", stack: "" }],
      wallMs: 1,
      steps: [{ cellId: "c", status: "failed", startedAt: 0, endedAt: 1, summary: "used s3cr3t-value", returnValue: '"s3cr3t-value"', exports: '{"k":"s3cr3t-value"}', logsFrom: 0, logsTo: 2 }],
    });
    assert.deepEqual(result.logs.map((l) => l.msg), ["k=[redacted:K]", "plain"]);
    assert.equal(result.error!.message, "bad [redacted:K]");
    assert.equal(result.error!.stack, "Error: bad [redacted:K]\n at x");
    assert.equal(result.emitErrors[0]!.message, "[redacted:K]");
    assert.equal(result.steps![0]!.summary, "used [redacted:K]");
    assert.equal(result.steps![0]!.returnValue, '"s3cr3t-value"');
    assert.equal(mask.json(result.steps![0]!.exports!), '{"k":"[redacted:K]"}');
    assert.equal(mask.json('{"n": 1}'), '{"n": 1}', "JSON without a secret is left as it is");
  });
});
