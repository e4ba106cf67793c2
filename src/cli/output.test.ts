import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { printable } from "./output.ts";
import { text } from "./commands/events.ts";

describe("text from the service, printed to a terminal", () => {
  it("has no control characters but newline and tab (an HTTP source's path reaches summaries)", () => {
    assert.equal(printable("GET /x\x1b]0;pwned\x07\x1b[2J\tend\nnext\x9b"), "GET /x\ufffd]0;pwned\ufffd\ufffd[2J\tend\nnext\ufffd");
    assert.equal(text({ id: "e", metadata: { summary: "POST /\x1b[2Jhi" } }), "POST /\ufffd[2Jhi");
    assert.equal(text({ id: "e", event: { lines: [{ level: "warn", msg: "a\x1b]52;c;Zm9v\x07" }] } }), "[warn] a\ufffd]52;c;Zm9v\ufffd");
  });
});
