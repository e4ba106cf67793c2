import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { INSTALL_ROOT, withoutHostPaths } from "./host-paths.ts";

test("the runner's bundle and files under the install folder lose their path; other text is kept", () => {
  const bundle = join(INSTALL_ROOT, "node_modules/.cache/tributary-runner/runner-5fdd62c62249b34e.cjs");
  const cases: Array<[string, string]> = [
    [`at #take (${bundle}:2150:13)`, "at #take (tributary-runner)"],
    [`at x (file://${bundle}:1:2)`, "at x (tributary-runner)"],
    [`ENOENT: open '${join(INSTALL_ROOT, "data/x.json")}'`, "ENOENT: open 'tributary/data/x.json'"],
    ["at run (component.mjs:3:9)", "at run (component.mjs:3:9)"],
    ["/elsewhere/file.js:1:1", "/elsewhere/file.js:1:1"],
  ];
  for (const [text, shown] of cases) assert.equal(withoutHostPaths(text), shown);
});
