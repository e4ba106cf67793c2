// The runner's invoke end to end, on a real runner: what an invocation hands back (emits, db,
// errors, logs) and how a source's invocations follow one another. Limits are in
// invoke-limits.test.ts, the sandbox's globals and modules in invoke-globals.test.ts.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";
import type { InvokeReply, InvokeResult } from "./protocol.ts";

const runner = testRunner();
after(() => runner.close());

const { request, send, run, source } = harness(runner);


describe("invoke: emits, db, errors", () => {
  it("emits events with checked meta, in call order", async () => {
    const r = await run(`export default { async run(event) {
      this.$emit({ n: 1, event }, { id: "a", name: "custom", summary: "first", ts: 5 });
      this.$emit(2, { id: 7, name: 3, summary: {}, ts: "x", extra: true });
      this.$emit("three");
    } }`, { event: { hello: "world" } });
    assert.equal(r.error, undefined);
    assert.deepEqual(events(r), [{ n: 1, event: { hello: "world" } }, 2, "three"]);
    assert.deepEqual(r.emits.map((e) => e.meta), [{ id: "a", name: "custom", summary: "first", ts: 5 }, { id: 7 }, {}]);
    assert.equal(r.db, null);
    assert.ok(r.wallMs > 0);
  });

  it("this: props, defaults, methods, app with $auth, timer", async () => {
    const r = await run(`
      const app = { type: "app", app: "gh", propDefinitions: { repo: { type: "string", default: "r1" } },
        methods: { token() { return this.$auth.token; } } };
      export default {
        props: { name: { type: "string" }, count: { type: "integer", default: 3 }, gh: app, other: app,
          repo: { propDefinition: [app, "repo"] }, timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } },
        methods: { greet() { return "hi " + this.name; } },
        run() { this.$emit({ greet: this.greet(), count: this.count, token: this.gh.token(), other: this.other.$auth,
          repo: this.repo, timer: this.timer }); },
      };`, { props: { name: "Ann", gh: { token: "t0k" }, timer: { intervalSeconds: 5 } } });
    assert.equal(r.error, undefined);
    assert.deepEqual(events(r), [
      { greet: "hi Ann", count: 3, token: "t0k", other: {}, repo: "r1", timer: { type: "$.interface.timer", intervalSeconds: 5 } },
    ]);
  });

  it("db persists in the warm instance, and a new epoch starts from the host's state", async () => {
    const invoke = source(`export default { props: { db: "$.service.db" }, run() {
      const n = (this.db.get("n") ?? 0) + 1; this.db.set("n", n); this.$emit(n); } }`);
    const first = await invoke({ db: { n: 10 } });
    assert.deepEqual(events(first), [11]);
    assert.deepEqual(first.db, { n: 11 });
    // Same epoch: the runner's own (newer) state wins over the stale one sent.
    assert.deepEqual(events(await invoke({ db: { n: 10 } })), [12]);
    assert.deepEqual(events(await invoke({ db: { n: 100 }, dbEpoch: 2 })), [101]);
  });

  it("db.set over the size limit throws inside the invocation; an error discards the changes", async () => {
    const invoke = source(`export default { props: { db: { type: "$.service.db" } }, run(event) {
      this.db.set("a", "x".repeat(10));
      if (event === "big") this.db.set("b", "x".repeat(2000));
      if (event === "fail") throw new Error("after set");
      this.$emit(this.db.get("a")); } }`);
    const big = await invoke({ event: "big", limits: { maxDbBytes: 1000 } });
    assert.match(big.error?.message ?? "", /over the limit of 1000/);
    assert.equal(big.db, null);
    const ok = await invoke({ event: "ok", db: { keep: 1 } });
    assert.deepEqual(ok.db, { keep: 1, a: "xxxxxxxxxx" });
    const failed = await invoke({ event: "fail" });
    assert.equal(failed.error?.message, "after set");
    assert.deepEqual([failed.db, failed.emits], [null, []]);
  });

  it("errors: thrown Error, non-Error, rejected promise; emits dropped, logs kept", async () => {
    const r = await run(`export default { async run() { console.log("before"); this.$emit(1);
      await null; throw new TypeError("bad thing"); } }`);
    assert.deepEqual([r.error?.name, r.error?.message, r.emits, r.logs.map((l) => l.msg)], ["TypeError", "bad thing", [], ["before"]]);
    assert.match(r.error?.stack ?? "", /component\.mjs:2/);
    const s = await run(`export default { run() { throw "plain string"; } }`);
    assert.deepEqual([s.error?.name, s.error?.message], ["Error", "plain string"]);
    const o = await run(`export default { run() { return Promise.reject({ code: 1 }); } }`);
    assert.match(o.error?.message ?? "", /non-Error thrown: \{ code: 1 \}/);
  });

  it("a component without run re-emits its event; hooks run with this.db; missing hooks succeed", async () => {
    const r = await run(`export default { props: { timer: "$.interface.timer" } }`, { event: { timestamp: 1 } });
    assert.deepEqual(events(r), [{ timestamp: 1 }]);
    const invoke = source(`export default { props: { db: "$.service.db" },
      hooks: { deploy() { this.db.set("deployed", true); this.$emit("d"); }, async activate() { this.$emit(this.db.get("deployed")); } } }`);
    const deploy = await invoke({ kind: "deploy" });
    assert.deepEqual([events(deploy), deploy.db], [["d"], { deployed: true }]);
    assert.deepEqual(events(await invoke({ kind: "activate" })), [true]);
    const none = await invoke({ kind: "deactivate" });
    assert.deepEqual([none.error, none.emits], [undefined, []]);
  });

  it("needCode round trip, and the code is kept for a new source", async () => {
    const code = `export default { run() { this.$emit("warm"); } }`;
    const codeHash = `hash-needcode-${process.pid}`;
    assert.deepEqual(await send(request(code, { codeHash, withCode: false })), { needCode: true });
    assert.deepEqual(events(await run(code, { codeHash })), ["warm"]);
    assert.deepEqual(events(await run(code, { codeHash, withCode: false })), ["warm"]);
  });

  it("a run sent without code to a runner that lacks it asks for it and keeps its place: the source's later runs wait behind it", async () => {
    // a counter in the instance: the order in which the runs of one source really ran
    const code = `let n = 0; export default { run() { this.$emit(++n); } }`;
    const codeHash = `hash-ordered-${process.pid}`;
    const [s, t] = ["src-ordered-s", "src-ordered-t"];
    const withCode = (req: ReturnType<typeof request>) =>
      runner.request<InvokeReply>(req, {
        key: req.sourceId,
        code: () => code,
        deadlineMs: 10_000,
        onTimeout: () => new Error("runner deadline"),
        onCrash: () => new Error("runner crashed"),
      });
    // one tick, one batch: S's first run without code (the host believed the runner held it),
    // another source bringing the same code, S's second run without code. Before: the first
    // answered needCode, the second found the code T brought and ran first, the first ran after.
    const [first, , second] = await Promise.all([
      withCode(request(code, { sourceId: s, codeHash, withCode: false })),
      withCode(request(code, { sourceId: t, codeHash })),
      withCode(request(code, { sourceId: s, codeHash, withCode: false })),
    ]);
    assert.ok(!("needCode" in first) && !("needCode" in second), "the runner asked for the code instead of answering needCode");
    assert.deepEqual([events(first as InvokeResult), events(second as InvokeResult)], [[1], [2]]);
  });

  it("invocations of one source run one at a time, in order", async () => {
    const invoke = source(`export default { props: { db: "$.service.db" }, async run(ms) {
      const log = this.db.get("log") ?? []; await new Promise((r) => setTimeout(r, ms));
      log.push(ms); this.db.set("log", log); this.$emit(log); } }`);
    const results = await Promise.all([30, 1, 10].map((ms) => invoke({ event: ms })));
    assert.deepEqual(events(results[2]), [[30, 1, 10]]);
  });

  it("a run's $emit kept past its end emits nothing into a later run; many emits of one run keep their order", async () => {
    const invoke = source(`let kept; export default { run(n) {
      if (!kept) { kept = this.$emit; for (let i = 0; i < 200; i++) this.$emit(i); return; }
      try { kept("late"); } catch (e) { this.$emit(e.message); } } }`);
    const first = await invoke({ event: 1 });
    assert.deepEqual(events(first), Array.from({ length: 200 }, (_, i) => i));
    const second = await invoke({ event: 2 });
    assert.deepEqual(events(second), ["$emit is only available while the component is invoked"]);
  });
});
