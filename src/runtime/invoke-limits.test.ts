// The runner's invoke end to end, on a real runner: the limits an invocation runs within (time,
// memory, emits, logs, the response) and what one source's failure costs the sources sharing its
// isolate.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";

const runner = testRunner();
after(() => runner.close());

const { run, source } = harness(runner);


describe("invoke: limits", () => {
  it("an endless loop times out, and the source works again afterwards", async () => {
    const invoke = source(`export default { run(e) { if (e === "loop") while (true) {} this.$emit("ok"); } }`);
    const r = await invoke({ event: "loop", limits: { timeoutMs: 200 } });
    assert.deepEqual([r.error?.name, r.error?.message], ["TimeoutError", "invocation timed out after 200 ms"]);
    assert.deepEqual(events(await invoke({ event: "x" })), ["ok"]);
  });

  it("an await that never settles times out; a loop after an await too", async () => {
    const never = await run(`export default { async run() { await new Promise(() => {}); } }`, { limits: { timeoutMs: 150 } });
    assert.equal(never.error?.name, "TimeoutError");
    const later = await run(`export default { async run() { await new Promise((r) => setTimeout(r, 5)); for (;;); } }`, {
      limits: { timeoutMs: 150 },
    });
    assert.equal(later.error?.name, "TimeoutError");
  });

  it("a memory bomb runs out of memory", async () => {
    const r = await run(`export default { run() { const a = []; while (true) a.push(new Array(1e6).fill(1)); } }`, {
      limits: { memoryMb: 16 },
    });
    assert.deepEqual([r.error?.name, r.error?.message], ["OutOfMemoryError", "out of memory (limit 16 MB)"]);
  });

  it("an unhandled rejection fails the invocation, and the runner lives on", async () => {
    const r = await run(`export default { async run() {
      await new Promise((r) => setTimeout(r, 1)); Promise.reject(new Error("forgotten"));
      await new Promise((r) => setTimeout(r, 50)); this.$emit("late"); } }`);
    assert.deepEqual([r.error?.message, r.emits], ["forgotten", []]);
    const t = await run(`export default { async run() { setTimeout(() => { throw new RangeError("in timer"); }, 1);
      await new Promise((r) => setTimeout(r, 50)); } }`);
    assert.deepEqual([t.error?.name, t.error?.message], ["RangeError", "in timer"]);
    assert.deepEqual(events(await run(`export default { run() { this.$emit(1); } }`)), [1]);
  });

  it("timers left pending are cancelled when the invocation ends", async () => {
    const invoke = source(`export default { async run(e) {
      if (e === "start") { setInterval(() => console.log("tick"), 5); setTimeout(() => console.log("late"), 30); return; }
      await new Promise((r) => setTimeout(r, 60)); console.log("second"); } }`);
    assert.deepEqual((await invoke({ event: "start" })).logs, []);
    assert.deepEqual((await invoke({ event: "again" })).logs.map((l) => l.msg), ["second"]);
  });

  it("a 2 MiB emit is refused on its own; the others land", async () => {
    const r = await run(`export default { run() { this.$emit(1); this.$emit("x".repeat(2 * 1024 * 1024));
      const o = {}; o.self = o; this.$emit(o); this.$emit(() => 1); this.$emit(2); } }`);
    assert.equal(r.error, undefined);
    assert.deepEqual(events(r), [1, 2]);
    assert.equal(r.emitErrors.length, 3);
    assert.match(r.emitErrors[0].message, /over the limit of 1048576/);
    assert.match(r.emitErrors[1].message, /not JSON-serializable/);
  });

  it("10,000 emits fail the invocation", async () => {
    const r = await run(`export default { run() { for (let i = 0; i < 10000; i++) this.$emit(i); } }`);
    assert.match(r.error?.message ?? "", /more than 1000 \$emit calls/);
    assert.deepEqual(r.emits, []);
  });

  it("console is captured with levels and formatting, and limited", async () => {
    const r = await run(`export default { run() {
      console.log("a", 1, { b: [1, "x"] }, null); console.info("%s=%d", "n", 42); console.warn(new Error("w").message);
      console.error(undefined); console.debug("long", "é".repeat(5000));
      for (let i = 0; i < 200; i++) console.log(i); } }`);
    assert.deepEqual(r.logs.slice(0, 4).map((l) => [l.level, l.msg]), [
      ["log", "a 1 { b: [ 1, 'x' ] } null"],
      ["info", "n=42"],
      ["warn", "w"],
      ["error", "undefined"],
    ]);
    assert.equal(r.logs[4].level, "debug");
    assert.ok(Buffer.byteLength(r.logs[4].msg) <= 4096 && r.logs[4].msg.startsWith("long éé"));
    assert.equal(r.logs.length, 101);
    assert.equal(r.logs[100].msg, "105 more console line(s) dropped (limit 100 per invocation)");
  });

  it("http.respond: first call wins, numeric-string status, invalid status throws", async () => {
    const r = await run(`export default { props: { http: { type: "$.interface.http", customResponse: true } }, run() {
      this.http.respond({ status: "201", headers: { "x-a": "1", n: 2 }, body: { ok: true, endpoint: this.http.endpoint } });
      this.http.respond({ status: 500, body: "ignored" }); } }`, { props: { http: { endpoint: "https://e.example/x" } } });
    assert.deepEqual(r.response, { status: 201, headers: { "x-a": "1", n: "2" }, body: { ok: true, endpoint: "https://e.example/x" } });
    const bad = await run(`export default { props: { http: "$.interface.http" }, run() { this.http.respond({ status: 99 }); } }`);
    assert.match(bad.error?.message ?? "", /status must be an integer from 200 to 599/);
    assert.equal(bad.response, undefined);
  });
});

describe("invoke: sources of one owner and code share an isolate", () => {
  const bombable = `export default { props: { db: "$.service.db" }, run(event) {
    if (event === "loop") for (;;) {}
    if (event === "bomb") { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }
    globalThis.seen = (globalThis.seen ?? 0) + 1;
    this.db.set("n", (this.db.get("n") ?? 0) + 1);
    this.$emit({ seen: globalThis.seen, n: this.db.get("n") });
  } }`;

  it("each source keeps its own globals and db; a hang costs only its own context, a memory bomb its siblings' warmth", async () => {
    const codeHash = `shared-${process.pid}`;
    const owner = `owner-${process.pid}`;
    const a = (c: Parameters<typeof run>[1] = {}) => run(bombable, { sourceId: "shared-a", codeHash, owner, ...c });
    const b = (c: Parameters<typeof run>[1] = {}) => run(bombable, { sourceId: "shared-b", codeHash, owner, ...c });
    // another owner's source of the same code never shares with them
    const other = (c: Parameters<typeof run>[1] = {}) => run(bombable, { sourceId: "shared-c", codeHash, owner: "someone-else", ...c });
    assert.deepEqual(events(await a({ event: 1 })), [{ seen: 1, n: 1 }]);
    assert.deepEqual(events(await b({ event: 1 })), [{ seen: 1, n: 1 }]);
    assert.deepEqual(events(await other({ event: 1 })), [{ seen: 1, n: 1 }]);
    assert.deepEqual(events(await a({ event: 2, db: { n: 1 } })), [{ seen: 2, n: 2 }], "warm: a's global and db carried on, b's didn't leak in");
    // an endless loop in a: a's context goes, b stays warm
    const hung = await a({ event: "loop", limits: { timeoutMs: 300 } });
    assert.equal(hung.error?.name, "TimeoutError");
    assert.deepEqual(events(await b({ event: 2, db: { n: 1 } })), [{ seen: 2, n: 2 }]);
    // a memory bomb in a ends the isolate a and b share: b starts cold; the other owner's is untouched
    const bombed = await a({ event: "bomb" });
    assert.equal(bombed.error?.name, "OutOfMemoryError");
    assert.deepEqual(events(await b({ event: 3, db: { n: 2 }, dbEpoch: 2 })), [{ seen: 1, n: 3 }], "b starts cold from the db the host gave it");
    assert.deepEqual(events(await other({ event: 2, db: { n: 1 } })), [{ seen: 2, n: 2 }]);
  });

  it("sources whose code holds a lot of memory spread over isolates instead of running one out of memory", async () => {
    // about 16 MB each at load, against the harness's 64 MB limit: four can't share one isolate
    const heavy = `const big = Array.from({ length: 400000 }, (_, i) => "item-" + i);
      export default { run() { this.$emit({ n: big.length }); } }`;
    const codeHash = `heavy-${process.pid}`;
    const owner = `heavy-owner-${process.pid}`;
    for (const id of ["h1", "h2", "h3", "h4", "h5"]) {
      const r = await run(heavy, { sourceId: `heavy-${id}`, codeHash, owner });
      assert.equal(r.error, undefined, `${id}: ${r.error?.message}`);
      assert.deepEqual(events(r), [{ n: 400000 }]);
    }
  });
});
