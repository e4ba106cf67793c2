import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AppError } from "../lib/errors.ts";
import type { InvokeReply, InvokeResult } from "./protocol.ts";
import { envVersion, events, harness, testRunner } from "./fixtures/invoke-harness.ts";

// process.env inside the isolate: exactly the invocation's variables (the owner's, as the host
// sends them), one object for the life of the context, fresh contents each run. And the Node
// globals every context has without importing anything.

const runner = testRunner();
after(() => runner.close());
const { request, run, source } = harness(runner);

describe("process.env in the sandbox", () => {
  it("holds the invocation's variables, and nothing of the runner's or the host's environment", async () => {
    const r = await run(`export default { run() { this.$emit({ ...process.env }); } }`, { env: { A: "1", __proto__x: "p", LONG: "x".repeat(1000) } });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{ A: "1", __proto__x: "p", LONG: "x".repeat(1000) }]);
    const none = await run(`export default { run() { this.$emit(Object.keys(process.env)); } }`);
    assert.deepEqual(events(none), [[]]);
  });

  it("one object for the context's life, its contents each run's own: a change is seen at once, a run's writes are not kept", async () => {
    const next = source(`
      const kept = process.env;
      const atLoad = process.env.V;
      export default { run() {
        const seen = { same: kept === process.env, v: kept.V, atLoad, leftover: process.env.MINE ?? null, has: "V" in kept };
        process.env.MINE = 42;
        delete process.env.V;
        seen.written = process.env.MINE;
        seen.deleted = process.env.V === undefined;
        this.$emit(seen);
      } }`);
    const first = await next({ env: { V: "one" } });
    assert.equal(first.error, undefined, first.error?.message);
    assert.deepEqual(events(first), [{ same: true, v: "one", atLoad: "one", leftover: null, has: true, written: "42", deleted: true }]);
    // the same variables: the last run's writes are gone all the same
    assert.deepEqual(events(await next({ env: { V: "one" } })), [{ same: true, v: "one", atLoad: "one", leftover: null, has: true, written: "42", deleted: true }]);
    assert.deepEqual(events(await next({ env: { V: "two" } })), [{ same: true, v: "two", atLoad: "one", leftover: null, has: true, written: "42", deleted: true }]);
    assert.deepEqual(events(await next({})), [{ same: true, atLoad: "one", leftover: null, has: false, written: "42", deleted: true }]);
  });

  it("requests carry only the version: the runner asks for a version's text once; two owners' sources of one code see only their own", async () => {
    const code = `export default { run() { const seen = { ...process.env }; process.env.WHO = "written"; this.$emit(seen); } }`;
    const asked: string[] = [];
    const codeHash = `env-owners-${process.pid}`;
    const sources = { alice: "env-src-alice", bob: "env-src-bob" };
    const runAs = async (owner: "alice" | "bob", env: Record<string, string>) => {
      const req = request(code, { owner, env, codeHash, sourceId: sources[owner] });
      assert.equal("envJson" in req, false);
      const json = JSON.stringify(env);
      const reply = await runner.request<InvokeReply>(req, {
        env: () => (asked.push(`${owner}:${json}`), json),
        code: () => code,
        deadlineMs: 10_000,
        onTimeout: () => new AppError("internal", "runner deadline"),
        onCrash: () => new AppError("internal", "runner crashed"),
      });
      const r = reply as InvokeResult;
      assert.equal(r.error, undefined, r.error?.message);
      return events(r)[0];
    };
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await runAs("alice", { WHO: "alice", A: "1" }), { WHO: "alice", A: "1" });
      assert.deepEqual(await runAs("bob", { WHO: "bob" }), { WHO: "bob" });
    }
    assert.deepEqual(asked, [`alice:{"WHO":"alice","A":"1"}`, `bob:{"WHO":"bob"}`], "each version's text crossed once");
    // the same variables of another owner are another version: never the first owner's
    assert.notEqual(envVersion("alice", { X: "1" }), envVersion("bob", { X: "1" }));
    // a change is a new version: the next run asks for it, and sees it
    assert.deepEqual(await runAs("alice", { WHO: "alice", A: "2" }), { WHO: "alice", A: "2" });
    assert.deepEqual(await runAs("alice", { WHO: "alice", A: "2" }), { WHO: "alice", A: "2" });
    assert.equal(asked.length, 3);
    assert.deepEqual(await runAs("bob", { WHO: "bob" }), { WHO: "bob" });
    assert.equal(asked.length, 3);
  });

  it("Buffer, process and AbortController need no import; the Buffer global is the buffer package", async () => {
    const r = await run(`export default { async run() {
      const ac = new AbortController();
      const reasons = [];
      ac.signal.onabort = () => reasons.push("onabort");
      ac.signal.addEventListener("abort", (e) => reasons.push(e.type), { once: true });
      ac.abort();
      ac.abort();
      let thrown;
      try { ac.signal.throwIfAborted(); } catch (e) { thrown = e.name; }
      const any = AbortSignal.any([new AbortController().signal, AbortSignal.abort("r")]);
      let illegal; try { new AbortSignal(); } catch (e) { illegal = e.name; }
      const order = [];
      process.nextTick(() => order.push("tick"));
      await null;
      const b = Buffer.concat([Buffer.from("hé"), Buffer.alloc(1, 33)]);
      this.$emit({ reasons, thrown, any: any.reason, illegal, order, b: b.toString(), len: b.length, json: b.toJSON().data.length,
        readInt: Buffer.from([0, 1]).readUInt16BE(0), platform: process.platform, title: typeof process.title,
        assigned: (() => { globalThis.Buffer = 5; return Buffer; })() });
    } }`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{ reasons: ["onabort", "abort"], thrown: "AbortError", any: "r", illegal: "TypeError", order: ["tick"],
      b: "hé!", len: 4, json: 4, readInt: 1, platform: "linux", title: "string", assigned: 5 }]);
  });

  it("a context that never touches Buffer is not handed the package", async () => {
    const r = await run(`export default { run() { this.$emit(Object.getOwnPropertyDescriptor(globalThis, "Buffer").get !== undefined); } }`);
    assert.deepEqual(events(r), [true]);
  });
});
