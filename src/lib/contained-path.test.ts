import { it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { containedPath } from "./contained-path.ts";

const base = "/data/npm/files";

it("a path inside its base is returned resolved", () => {
  assert.equal(containedPath(base, "lodash@4.17.21"), join(base, "lodash@4.17.21"));
  assert.equal(containedPath(base, "a@1.0.0", "node_modules", "@scope/b"), join(base, "a@1.0.0/node_modules/@scope/b"));
  assert.equal(containedPath(base + "/", "x/./y"), join(base, "x/y"));
  assert.equal(containedPath(base, "a/../b"), join(base, "b"), "a climb that stays inside is fine");
  assert.equal(containedPath("relative/dir", "x"), join(process.cwd(), "relative/dir/x"));
});

it("a path that leads outside, or to the base itself, throws", () => {
  for (const parts of [["../victim"], ["1.0.0/../../../etc"], ["a", "..", ".."], ["/etc/passwd"], ["a", "/abs"], [""], ["."], ["a/.."], ["..files"].map((p) => "../" + p), ["x\0y"]]) {
    assert.throws(() => containedPath(base, ...parts), /leads outside its directory/, JSON.stringify(parts));
  }
});

it("a sibling whose name starts with the base's is outside", () => {
  assert.throws(() => containedPath(base, "../files-other/x"), /leads outside/);
  assert.equal(containedPath(base, "..files"), join(base, "..files"), "a name starting with two dots is still inside");
});
