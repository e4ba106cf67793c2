import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_KEYS, parseJsonBody } from "./json-body.ts";
import { AppError } from "../lib/errors.ts";

const refused = (text: string, field: string) =>
  assert.throws(() => parseJsonBody(text), (err: unknown) => err instanceof AppError && err.code === "invalid_request" && err.details?.[0].field === field);

test("an empty body is an empty object; __proto__ members are dropped at any depth", () => {
  assert.deepEqual(parseJsonBody("  "), {});
  const v = parseJsonBody('{"__proto__": {"admin": true}, "a": [{"__proto__": 1, "b": 2}], "c": {"\\u005f_proto__": 3}}') as any;
  assert.deepEqual(v, { a: [{ b: 2 }], c: {} });
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.equal(({} as any).admin, undefined);
});

test("too deep and too wide bodies are refused before anything walks them", () => {
  refused("[".repeat(257) + "]".repeat(257), "body");
  assert.doesNotThrow(() => parseJsonBody("[".repeat(256) + "]".repeat(256)));
  const wide = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
  refused(`{"x": [1, {"y": ${wide(MAX_KEYS + 1)}}]}`, "body");
  refused(wide(MAX_KEYS + 1), "body");
  assert.doesNotThrow(() => parseJsonBody(wide(MAX_KEYS)));
  assert.throws(() => parseJsonBody("{"), /not valid JSON/);
  // colons, brackets and quotes inside strings are text, not shape
  const inStrings = JSON.stringify({ a: ":".repeat(MAX_KEYS + 5), b: "[".repeat(5000), c: '\\"{'.repeat(300) });
  assert.doesNotThrow(() => parseJsonBody(inStrings));
  // an array's elements aren't members: 100,000 of them are fine
  assert.doesNotThrow(() => parseJsonBody(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ i })))));
});
