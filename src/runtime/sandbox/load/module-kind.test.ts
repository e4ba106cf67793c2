import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isCommonJs } from "./module-kind.ts";

describe("isCommonJs", () => {
  it("tells CommonJS from ES modules, with imports after blank or indented lines", () => {
    assert.equal(isCommonJs(`module.exports = { run() {} }`), true);
    assert.equal(isCommonJs(`exports.run = () => 1`), true);
    assert.equal(isCommonJs(`\n\n   import x from "y";\nmodule.exports = 1`), false);
    assert.equal(isCommonJs(`\r\n\texport default {}; exports.a = 1`), false);
    assert.equal(isCommonJs(`export default { run() {} }`), false);
  });

  it("reads a component of a million blank lines in linear time (a user's code runs on the main thread here)", () => {
    const code = "exports.a = 1\n" + "\n".repeat(1_000_000) + "x";
    const started = performance.now();
    assert.equal(isCommonJs(code), true);
    // quadratic before: 160,000 lines took 12 s; linear, a million take a few ms
    const ms = performance.now() - started;
    assert.ok(ms < 2000, `took ${Math.round(ms)} ms`);
  });
});
