import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "./json-depth.ts";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

test("jsonTooDeep counts brackets outside strings only", () => {
  assert.equal(jsonTooDeep(nested(MAX_JSON_DEPTH)), false);
  assert.equal(jsonTooDeep(nested(MAX_JSON_DEPTH + 1)), true);
  assert.equal(jsonTooDeep(`{"a":"${"[".repeat(5000)}"}`), false);
  assert.equal(jsonTooDeep(`["\\"${"[".repeat(5000)}"]`), false);
  assert.equal(jsonTooDeep(`{"a":${nested(300)}}`), true);
  assert.equal(jsonTooDeep(nested(100_000)), true);
});

test("valueTooDeep bounds a parsed value without recursing", () => {
  assert.equal(valueTooDeep(JSON.parse(nested(MAX_JSON_DEPTH))), false);
  assert.equal(valueTooDeep(JSON.parse(nested(MAX_JSON_DEPTH + 1))), true);
  assert.equal(valueTooDeep(JSON.parse(nested(100_000))), true);
  assert.equal(valueTooDeep({ a: [1, { b: 2 }], c: "x" }), false);
  assert.equal(valueTooDeep("text"), false);
});
