import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";

// DOMException in the sandbox, as Node has it: a global (googleapis and gaxios build one on their
// stream and abort paths, some modules at their top level), an Error with name, message and the
// legacy code, and the reason an AbortSignal is aborted with by default.

const runner = testRunner();
after(() => runner.close());
const { run } = harness(runner);

describe("DOMException in the sandbox", () => {
  it("is a global shaped as Node's: name, message, legacy code and constants, an Error with a stack", async () => {
    const r = await run(`
      class StreamAborted extends DOMException {}
      export default { run() {
        const e = new DOMException("stopped", "AbortError");
        const withOptions = new DOMException("no clone", { name: "DataCloneError", cause: "why" });
        const plain = new DOMException();
        let badThis; try { DOMException.prototype.name; } catch (x) { badThis = x.name; }
        let called; try { DOMException(); } catch (x) { called = x.name; }
        const sub = new StreamAborted("sub", "AbortError");
        this.$emit({
          name: e.name, message: e.message, code: e.code, isError: e instanceof Error, own: Object.keys(e),
          tag: Object.prototype.toString.call(e), text: String(e), stack: e.stack.split("\\n")[0],
          ABORT_ERR: DOMException.ABORT_ERR, TIMEOUT_ERR: e.TIMEOUT_ERR, DATA_CLONE_ERR: DOMException.DATA_CLONE_ERR,
          options: [withOptions.name, withOptions.code, withOptions.cause], plain: [plain.name, plain.message, plain.code],
          other: new DOMException("x", "Weird").code, badThis, called, sub: [sub instanceof DOMException, sub.code],
        });
      } }`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{
      name: "AbortError", message: "stopped", code: 20, isError: true, own: [],
      tag: "[object DOMException]", text: "AbortError: stopped", stack: "AbortError: stopped",
      ABORT_ERR: 20, TIMEOUT_ERR: 23, DATA_CLONE_ERR: 25,
      options: ["DataCloneError", 25, "why"], plain: ["Error", "", 0],
      other: 0, badThis: "TypeError", called: "TypeError", sub: [true, 20],
    }]);
  });

  it("an AbortSignal's default reasons are DOMExceptions named AbortError and TimeoutError", async () => {
    const r = await run(`export default { async run() {
      const ac = new AbortController();
      ac.abort();
      const reason = ac.signal.reason;
      let thrown; try { ac.signal.throwIfAborted(); } catch (e) { thrown = e; }
      const timeout = AbortSignal.timeout(1);
      await new Promise((done) => timeout.addEventListener("abort", done));
      const t = timeout.reason;
      this.$emit({
        abort: [reason instanceof DOMException, reason.name, reason.message, reason.code, thrown === reason],
        static: AbortSignal.abort().reason instanceof DOMException,
        timeout: [t instanceof DOMException, t.name, t.message, t.code],
      });
    } }`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{
      abort: [true, "AbortError", "This operation was aborted", 20, true],
      static: true,
      timeout: [true, "TimeoutError", "The operation was aborted due to timeout", 23],
    }]);
  });

  it("one thrown fails the run under its name; structuredClone's DataCloneError is one", async () => {
    const clone = await run(`export default { run() {
      try { structuredClone(() => 1); } catch (e) { this.$emit([e instanceof DOMException, e.name, e.code]); }
    } }`);
    assert.deepEqual(events(clone), [[true, "DataCloneError", 25]]);
    const r = await run(`export default { run() { throw new DOMException("The user aborted a request.", "AbortError"); } }`);
    assert.equal(r.error?.name, "AbortError");
    assert.equal(r.error?.message, "The user aborted a request.");
  });
});
