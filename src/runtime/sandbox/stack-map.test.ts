import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../../lib/esbuild.ts";
import { lineMapOf, mapStack, withLineMap, withoutRuntimeFrames } from "./stack-map.ts";

// The bundle's map of the user's file: made from esbuild's real source map, read back by the
// runner, and bounded against a map that hostile code writes itself.

async function bundled(code: string, files: Record<string, string>): Promise<{ js: string; map: string }> {
  const dir = mkdtempSync(join(tmpdir(), "stack-map-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const r = await build({
    stdin: { contents: code, sourcefile: "component.mjs", loader: "js", resolveDir: dir },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    sourcemap: "external",
    sourcesContent: false,
    outfile: "/bundle.mjs",
    logLevel: "silent",
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  return { js: r.outputFiles.find((f) => f.path.endsWith(".mjs"))!.text, map: r.outputFiles.find((f) => f.path.endsWith(".map"))!.text };
}

describe("stack maps", () => {
  it("map a bundle's frames back to the user's lines, leave others alone", async () => {
    // the imported file comes first in the bundle, so the user's lines move down
    const user = `import { parseArgs } from "node:util";\nimport { helper } from "./helper.js";\n\nexport default {\n  run() {\n    return [parseArgs, helper];\n  },\n};\n`;
    const helper = Array.from({ length: 30 }, (_, i) => `export const h${i} = () => ${i};`).join("\n") + "\nexport function helper() { return h1() + h2(); }\n";
    const { js, map } = await bundled(user, { "helper.js": helper });
    const code = withLineMap(js, map, "component.mjs");
    const lm = lineMapOf(code);
    assert.ok(lm, "the bundle carries its map");
    const genLine = js.split("\n").findIndex((l) => l.includes("return [parseArgs")) + 1;
    assert.ok(genLine > 6, `the user's line moved: ${genLine}`);
    const col = js.split("\n")[genLine - 1]!.indexOf("return") + 1;
    const stack = `Error: x\n    at Object.run (component.mjs:${genLine}:${col})\n    at other (component.mjs:1:1)\n    at lib (node_modules/x.js:3:4)`;
    const mapped = mapStack(stack, lm);
    assert.match(mapped, /Object\.run \(component\.mjs:6:5\)/);
    assert.match(mapped, /other \(component\.mjs:1:1\)/, "a position the map doesn't cover stays");
    assert.match(mapped, /node_modules\/x\.js:3:4/);
  });

  it("code without a map, or with one too large to be the bundler's, is left as it is", () => {
    assert.equal(lineMapOf("export default {};"), null);
    const forged = `export default {};\n//# tributaryMap=0;${"AAAA,".repeat(200_000)}AAAA\n`;
    assert.equal(lineMapOf(forged), null);
    assert.equal(lineMapOf("x\n//# tributaryMap=nope;AAAA\n"), null);
    const stack = "Error: y\n    at run (component.mjs:1:999999)";
    assert.equal(mapStack(stack, null), stack);
  });

  it("a forged map only misplaces its own frames, and only the first 50", () => {
    const lm = lineMapOf(`x\n//# tributaryMap=0;${"AAAA,".repeat(1000)}AAAA\n`);
    assert.ok(lm);
    const stack = "Error\n" + Array.from({ length: 60 }, () => "    at f (component.mjs:1:999999999)").join("\n");
    const mapped = mapStack(stack, lm);
    assert.equal((mapped.match(/component\.mjs:1:1\)/g) ?? []).length, 50);
  });

  it("the sandbox's own frames go; the user's stay", () => {
    const s = "TypeError: bad\n    at Object.run (component.mjs:4:11)\n    at Object.run (tributary:runtime.js:1454:25)\n    at start (tributary:runtime.js:1568:60)\n    at tributary:runtime.js:1583:21";
    assert.equal(withoutRuntimeFrames(s), "TypeError: bad\n    at Object.run (component.mjs:4:11)");
    // a message of newlines and spaces is not a stack of frames
    const odd = "Error: " + "\n ".repeat(5000) + "tributary:";
    assert.equal(withoutRuntimeFrames(odd), odd);
  });
});
