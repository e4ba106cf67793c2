import { it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createAnalyzer } from "./analyzer.ts";
import { runnerEntry } from "./runner-entry.ts";

// Runners start from a bundled CommonJS file, never from the TypeScript sources (runner-entry.ts
// says why: a WebAssembly compile in young runners could deadlock V8 with isolated-vm).

it("runners start from one bundled CommonJS file that finds the sandbox's own files", async () => {
  const entry = runnerEntry();
  assert.match(entry, /node_modules\/\.cache\/tributary-runner\/runner-[0-9a-f]{16}\.cjs$/);
  assert.ok(existsSync(entry));
  assert.doesNotMatch(readFileSync(entry, "utf8"), /import\.meta/);
  // a provided module and the in-isolate runtime are read from src/runtime/sandbox at run time
  const analyzer = createAnalyzer();
  try {
    const meta = await analyzer.analyze(`import axios from "axios"; export default { name: "bundled", props: { u: { type: "string" } }, run() {} };`);
    assert.equal(meta.name, "bundled");
    assert.equal(analyzer.runnersStarted, 1);
  } finally {
    await analyzer.close();
  }
});

it("an analyzer's runner stops when idle, and the next save starts another", async () => {
  const analyzer = createAnalyzer({ idleMs: 50 });
  try {
    assert.equal((await analyzer.analyze(`export default { name: "one" }`)).name, "one");
    for (let i = 0; analyzer.running && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(analyzer.running, false, "the idle runner was stopped");
    assert.equal((await analyzer.analyze(`export default { name: "two" }`)).name, "two");
    assert.equal(analyzer.runnersStarted, 2);
  } finally {
    await analyzer.close();
  }
});
