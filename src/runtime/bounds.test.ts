import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { RunnerProcess } from "./runner-process.ts";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";

// What one invocation may hand the host, and what it may hold, is bounded (bytes, nesting,
// WebAssembly, timer floods, respond() headers): past a bound the invocation fails with a clear
// error, and the runner serving it goes on serving others.

const runner = testRunner();
after(() => runner.close());
const { run } = harness(runner);

const nested = (depth: number) => `"[".repeat(${depth}) + "]".repeat(${depth})`;
const pid = async () => (await run(`export default { run() { this.$emit("alive"); } }`)).error;

describe("invoke: bounds on what a component hands the host", () => {
  it("1,000 emits of 1 MiB fail the run with a bound on its output; the runner keeps serving", async () => {
    const r = await run(`export default { run() {
      const big = "x".repeat(1024 * 1024 - 16);
      for (let i = 0; i < 1000; i++) this.$emit(big);
    } }`);
    assert.equal(r.error?.name, "RangeError");
    assert.match(r.error?.message ?? "", /output would pass 16777216 bytes/);
    assert.deepEqual(r.emits, []);
    assert.equal(await pid(), undefined);
  });

  it("emits within the output bound all land", async () => {
    const r = await run(`export default { run() {
      const big = "y".repeat(512 * 1024);
      for (let i = 0; i < 20; i++) this.$emit(big);
    } }`);
    assert.equal(r.error, undefined);
    assert.equal(r.emits.length, 20);
  });

  it("emits still waiting in the sandbox when the run ends are held to the bound too", async () => {
    // small emits wait in the isolate and reach the runner with the outcome: past the bound, the
    // run fails there, naming the bound and nothing of the runner's own code
    const r = await run(`export default { run() { for (let i = 0; i < 3; i++) this.$emit("z".repeat(600)); } }`, {
      limits: { maxResultBytes: 1000 },
    });
    assert.equal(r.error?.name, "RangeError");
    assert.match(r.error?.message ?? "", /output would pass 1000 bytes/);
    assert.equal(r.error?.stack, "");
    assert.deepEqual(r.emits, []);
  });

  it("an emit nested deeper than 256 levels is refused onto $errors; the run's other emits land", async () => {
    const r = await run(`export default { run() {
      this.$emit(JSON.parse(${nested(5000)}));
      this.$emit(JSON.parse(${nested(256)}));
      this.$emit("after");
    } }`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.emitErrors.length, 1);
    assert.match(r.emitErrors[0].message, /deeper than 256 levels|not JSON-serializable/);
    assert.equal(r.emits.length, 2);
    assert.equal(events(r)[1], "after");
  });

  it("db.set of a value nested deeper than 256 levels throws inside the run", async () => {
    const r = await run(`export default { props: { db: "$.service.db" }, run() {
      this.db.set("deep", JSON.parse(${nested(300)}));
    } }`);
    assert.equal(r.error?.name, "RangeError");
    assert.match(r.error?.message ?? "", /nests deeper than 256 levels/);
  });

  it("respond() with a body nested too deep fails the run, and no response is handed over", async () => {
    const r = await run(`export default { props: { http: { type: "$.interface.http", customResponse: true } }, run() {
      this.http.respond({ status: 200, body: JSON.parse(${nested(1000)}) });
    } }`);
    assert.ok(r.error, "the run should fail");
    assert.equal(r.response, undefined);
  });

  it("respond() headers: CR/LF fails the run naming the header; hop-by-hop headers are dropped; 101 is refused", async () => {
    const crlf = await run(`export default { props: { http: { type: "$.interface.http", customResponse: true } }, run() {
      this.http.respond({ status: 200, headers: { "x-evil": "a\\r\\nset-cookie: b" }, body: "hi" });
    } }`);
    assert.equal(crlf.error?.name, "TypeError");
    assert.match(crlf.error?.message ?? "", /header "x-evil"/);
    assert.equal(crlf.response, undefined);

    const badName = await run(`export default { props: { http: "$.interface.http" }, run() {
      this.http.respond({ status: 200, headers: { "bad name": "x" } });
    } }`);
    assert.match(badName.error?.message ?? "", /not a valid header name/);

    const hop = await run(`export default { props: { http: "$.interface.http" }, run() {
      this.http.respond({ status: 201, headers: { "Transfer-Encoding": "chunked", connection: "upgrade", "content-length": "5", "x-ok": "yes" }, body: "hello" });
    } }`);
    assert.equal(hop.error, undefined, hop.error?.message);
    assert.deepEqual(hop.response, { status: 201, headers: { "x-ok": "yes" }, body: "hello" });

    const upgrade = await run(`export default { props: { http: "$.interface.http" }, run() { this.http.respond({ status: 101 }); } }`);
    assert.match(upgrade.error?.message ?? "", /status must be an integer from 200 to 599/);
  });

  it("components get no WebAssembly: its memory would live outside the isolate's limit", async () => {
    const r = await run(`export default { run() { this.$emit(typeof WebAssembly); this.$emit(typeof globalThis.WebAssembly); } }`);
    assert.deepEqual(events(r), ["undefined", "undefined"]);
  });

  it("code that needs WebAssembly at its top level (ssh2's poly1305) fails saying the sandbox has none, and why", async () => {
    const r = await run(`const ready = (async () => { "object" !== typeof WebAssembly && (() => { throw new WebAssembly.RuntimeError("abort"); })(); })();
      export default { async run() { await ready; } }`);
    assert.match(r.error?.message ?? "", /WebAssembly is not defined.*the sandbox has no WebAssembly: its memory would not count against the invocation's memory limit/);
    assert.equal(await pid(), undefined);
  });

  it("a flood of 0 ms intervals ends with the run (or its timeout), and the runner keeps serving", async () => {
    const r = await run(
      `export default { async run() {
        let n = 0;
        for (let i = 0; i < 999; i++) setInterval(() => { n++; }, 0);
        await new Promise((done) => setTimeout(done, 300));
        this.$emit(n > 0);
      } }`,
      { limits: { timeoutMs: 5000 } },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [true]);
    assert.equal(await pid(), undefined);
  });

  it("warm isolates are bounded by their heaps, not only by count: 30 heaps of 40 MiB don't stay", async () => {
    const small = new RunnerProcess({ settings: { warmMemoryMb: 128 } });
    try {
      const { run: runSmall } = harness(small);
      for (let i = 0; i < 30; i++) {
        const r = await runSmall(`const keep = []; export default { run() { for (let i = 0; i < 40; i++) keep.push(new Array(128 * 1024).fill(i)); this.$emit(keep.length); } }`, {
          limits: { memoryMb: 128 },
        });
        assert.equal(r.error, undefined, r.error?.message);
      }
      // kept warm, the 30 would hold 1.2 GiB; within the budget, a few hundred MiB at most
      assert.ok(small.lastRss > 0 && small.lastRss < 700 * 1024 * 1024, `runner RSS ${Math.round(small.lastRss / 1048576)} MiB`);
    } finally {
      await small.close();
    }
  });

  it("a source whose next tick is far away lets its context go after each run; one due soon stays warm", async () => {
    const counted = `let runs = 0; export default { run() { this.$emit(++runs); } }`;
    const { request, send } = harness(runner);
    const tick = async (sourceId: string, inMs: number) => {
      const req = { ...request(counted, { sourceId, codeHash: "far-or-near" }), nextUseAt: Date.now() + inMs };
      const reply = await send(req);
      assert.ok(!("needCode" in reply));
      return events(reply);
    };
    assert.deepEqual(await tick("near", 15_000), [1]);
    assert.deepEqual(await tick("near", 15_000), [2], "15 s apart: kept warm");
    assert.deepEqual(await tick("far", 15 * 60_000), [1]);
    assert.deepEqual(await tick("far", 15 * 60_000), [1], "15 min apart: started again for each tick");
  });

  it("warm sources are bounded by count (warmSources): past it, a source starts again cold", async () => {
    const counted = `let runs = 0; export default { run() { this.$emit(++runs); } }`;
    const runs = async (settings: { warmMemoryMb: number; warmSources?: number }) => {
      const runner = new RunnerProcess({ settings });
      try {
        const { source } = harness(runner);
        const [a, b, c] = [source(counted), source(counted), source(counted)];
        for (const s of [a, b, c]) assert.deepEqual(events(await s()), [1]);
        return events(await a());
      } finally {
        await runner.close();
      }
    };
    assert.deepEqual(await runs({ warmMemoryMb: 1024 }), [2], "by default the three stay warm");
    assert.deepEqual(await runs({ warmMemoryMb: 1024, warmSources: 2 }), [1], "with room for 2, the first went cold");
  });
});
