import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./fixtures/invoke-harness.ts";
import { RunnerProcess } from "./runner-process.ts";
import { EntryModes } from "./sandbox/entry-mode.ts";

// Entries into an isolate on the runner's own thread (sandbox/entry-mode.ts): which code earns
// them, what a component that stalls costs, and (below) the runtime's suites run again with every
// entry synchronous, so that path keeps every behaviour of the async one.

describe("entry modes: the policy", () => {
  const hash = "code-a";
  const quick = (m: EntryModes, n: number) => {
    for (let i = 0; i < n; i++) m.took(hash, 1, m.sync(hash));
  };

  it("promotes code after a streak of quick entries, and a slow one breaks the streak", () => {
    const m = new EntryModes();
    quick(m, 15);
    m.took(hash, 50, false);
    quick(m, 15);
    assert.equal(m.sync(hash), false);
    quick(m, 1);
    assert.equal(m.sync(hash), true);
    assert.equal(m.sync("code-b"), false, "per code hash");
  });

  it("slow synchronous entries demote, and the next promotion needs twice the streak", () => {
    const m = new EntryModes();
    quick(m, 16);
    m.took(hash, 20, true);
    assert.equal(m.sync(hash), true, "one slow entry may be a descheduled thread");
    m.took(hash, 20, true);
    assert.equal(m.sync(hash), false);
    quick(m, 31);
    assert.equal(m.sync(hash), false);
    quick(m, 1);
    assert.equal(m.sync(hash), true);
  });

  it("a stall, a timeout or running out of memory demotes for good; three stalls end it for every code", () => {
    const m = new EntryModes();
    quick(m, 16);
    m.took(hash, 500, true);
    quick(m, 1000);
    assert.equal(m.sync(hash), false);
    for (const other of ["b", "c"]) {
      for (let i = 0; i < 16; i++) m.took(other, 1, false);
      assert.equal(m.sync(other), true);
      m.stalled(other, true);
      assert.equal(m.sync(other), false);
    }
    for (let i = 0; i < 16; i++) m.took("d", 1, false);
    assert.equal(m.sync("d"), false, "after three stalls nothing is promoted");
  });

  it("a new context is made on the runner's thread once the code's entries are and its cold starts are quick", () => {
    const m = new EntryModes();
    m.started(hash, 1, false);
    assert.equal(m.syncStart(hash), false, "entries not promoted yet");
    quick(m, 16);
    assert.equal(m.syncStart(hash), true);
    m.started(hash, 40, true);
    assert.equal(m.syncStart(hash), true, "one slow start may be a collection");
    for (let i = 0; i < 5; i++) m.started(hash, 40, true);
    assert.equal(m.syncStart(hash), false, "a big bundle's top level starts in the pool");
    assert.equal(m.sync(hash), true, "its runs stay on the thread");
    m.started(hash, 2, false);
    assert.equal(m.syncStart(hash), true);
    assert.equal(m.syncStart("code-b"), false, "never started: unknown cost");
  });

  it("a pooled start's time (its isolate's, shared with other contexts) only ever shows a code is quick", () => {
    const m = new EntryModes();
    quick(m, 16);
    m.started(hash, 30, false);
    assert.equal(m.syncStart(hash), false);
    m.started(hash, 1, false);
    assert.equal(m.syncStart(hash), true);
    m.started(hash, 30, false);
    assert.equal(m.syncStart(hash), true, "a burst measured in the pool doesn't send it back there");
  });

  it("a cold start that stalls the runner bans the code from the runner's thread", () => {
    const m = new EntryModes();
    quick(m, 16);
    m.started(hash, 1, false);
    m.started(hash, 500, true);
    m.started(hash, 1, false);
    assert.equal(m.sync(hash), false);
    assert.equal(m.syncStart(hash), false);
  });

  it("off: nothing is promoted", () => {
    const m = new EntryModes();
    m.set(false);
    quick(m, 100);
    assert.equal(m.sync(hash), false);
  });
});

describe("entry modes: in a runner", () => {
  // every code synchronous from its first entry: which entries are, is the policy's part (above)
  const runner = new RunnerProcess({ settings: { warmMemoryMb: 1024, syncEntries: "always" } });
  after(() => runner.close());
  const { source } = harness(runner);
  const code = `export default { props: { spin: { type: "boolean", optional: true } },
    async run() { if (this.spin) for (;;) {} this.$emit({ ok: true }); } }`;
  const quickCode = `export default { async run() { this.$emit({ quick: true }); } }`;

  /** which of two runs sent together ends first */
  async function firstToEnd(a: Promise<unknown>, b: Promise<unknown>): Promise<"a" | "b"> {
    const order: string[] = [];
    await Promise.all([a.then(() => order.push("a")), b.then(() => order.push("b"))]);
    return order[0] as "a" | "b";
  }

  it("code entered on the runner's thread holds it when it loops, and after that timeout it never is again", async () => {
    const looper = source(code);
    const other = source(quickCode);
    assert.equal((await other()).error, undefined);
    assert.equal((await looper()).error, undefined);

    // promoted: its loop holds the runner's thread, so the other source's run waits for its timeout
    const spin1 = looper({ props: { spin: true }, limits: { timeoutMs: 1000 } });
    const first = await firstToEnd(spin1, other());
    assert.equal((await spin1).error?.name, "TimeoutError");
    assert.equal(first, "a", "the promoted loop held the runner");

    // demoted for good: the loop runs on the pool's thread and the other source goes on meanwhile
    assert.equal((await looper()).error, undefined);
    const spin2 = looper({ props: { spin: true }, limits: { timeoutMs: 1000 } });
    const second = await firstToEnd(spin2, other());
    assert.equal((await spin2).error?.name, "TimeoutError");
    assert.equal(second, "b", "the other source ran while the demoted loop spun");
  });

  it("a top level that never ends, started on the runner's thread, fails its invocation with a timeout", async () => {
    const stuck = source(`for (;;) {}\nexport default { run() {} }`);
    const other = source(quickCode);
    const r = await stuck({ limits: { timeoutMs: 500 } });
    assert.equal(r.error?.name, "TimeoutError");
    assert.deepEqual((await other()).emits.length, 1, "the runner goes on");
  });
});

// The runtime's suites again, every entry synchronous from the first. Not on the PostgreSQL pass:
// the runtime has no store, so that pass would only repeat this one.
if (process.env.TRIBUTARY_TEST_STORE !== "postgres") {
  process.env.TRIBUTARY_TEST_SYNC_ENTRIES = "always";
  await import("./invoke-results.test.ts");
  await import("./invoke-limits.test.ts");
  await import("./invoke-globals.test.ts");
  await import("./bounds.test.ts");
  await import("./workflow.test.ts");
}
