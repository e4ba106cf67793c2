import { after, test } from "node:test";
import assert from "node:assert/strict";
import { RunnerProcess } from "./runner-process.ts";
import { runtimeBundle } from "./runtime-bundle.ts";
import { events, harness } from "./fixtures/invoke-harness.ts";

// The service hands its runners the in-isolate runtime as one bundled module; components must
// see exactly the runtime the separate modules give them.
const code = runtimeBundle();
const runner = new RunnerProcess({ settings: { warmMemoryMb: 256, ...(code ? { runtimeBundle: code } : {}) } });
after(() => runner.close());
const { run } = harness(runner);

test("the runtime bundles into one module the runners can take", () => {
  assert.ok(code && code.length > 10_000 && code.length < 100 * 1024, `bundle of ${code?.length} bytes`);
  assert.doesNotMatch(code, /^import /m, "the bundle imports nothing");
});

test("a component runs on the bundled runtime: globals, console, db, emits, a provided module", async () => {
  const r = await run(`import axios from "axios";
    export default { props: { db: "$.service.db" }, run(event) {
      console.log("hello", { n: 1 });
      this.db.set("n", (this.db.get("n") ?? 0) + 1);
      const u = new URL("https://example.com/a?b=1");
      this.$emit({ event, n: this.db.get("n"), b: u.searchParams.get("b"), axios: typeof axios.get,
        text: new TextDecoder().decode(new TextEncoder().encode("é")), fetch: typeof fetch });
    } }`, { event: { x: 1 } });
  assert.equal(r.error, undefined, r.error?.message);
  assert.deepEqual(events(r), [{ event: { x: 1 }, n: 1, b: "1", axios: "function", text: "é", fetch: "function" }]);
  assert.equal(r.logs[0]?.msg, "hello { n: 1 }");
});

test("a runner given a bundle loads the runtime from it, not from the files", async () => {
  const bogus = new RunnerProcess({ settings: { warmMemoryMb: 256, runtimeBundle: "export const nothing = 1;" } });
  try {
    const r = await harness(bogus).run(`export default { run() { this.$emit({ ok: 1 }); } }`);
    assert.ok(r.error, "a runtime without install/bind can't run a component");
  } finally {
    await bogus.close();
  }
});
