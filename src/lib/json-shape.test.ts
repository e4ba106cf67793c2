import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonShapeProblem, jsonTooDeep, MAX_JSON_DEPTH } from "./json-shape.ts";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

test("jsonTooDeep counts brackets outside strings only", () => {
  assert.equal(jsonTooDeep(nested(MAX_JSON_DEPTH)), false);
  assert.equal(jsonTooDeep(nested(MAX_JSON_DEPTH + 1)), true);
  assert.equal(jsonTooDeep(`{"a":"${"[".repeat(5000)}"}`), false);
  assert.equal(jsonTooDeep(`["\\"${"[".repeat(5000)}"]`), false);
  assert.equal(jsonTooDeep(`{"a":${nested(300)}}`), true);
  assert.equal(jsonTooDeep(nested(100_000)), true);
});

test("jsonShapeProblem also bounds the members of any one object", () => {
  const wide = "{" + Array.from({ length: 11 }, (_, i) => `"k${i}":${i}`).join(",") + "}";
  assert.deepEqual(jsonShapeProblem(wide, 10, 10), { kind: "wide" });
  assert.equal(jsonShapeProblem(wide, 10, 11), undefined);
  assert.equal(jsonShapeProblem(`[${"1,".repeat(100)}1]`, 10, 10), undefined, "array elements are not members");
  assert.deepEqual(jsonShapeProblem(nested(11), 10, 10), { kind: "deep" });
});
