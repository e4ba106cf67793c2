import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "../lib/errors.ts";
import { createAnalyzer } from "./analyzer.ts";
import type { InvokeLimits, InvokeReply, InvokeRequest, InvokeResult } from "./protocol.ts";
import { LIMITS, testRunner } from "./fixtures/invoke-harness.ts";
import { parseWorkflowCode, WORKFLOW_MARKER, workflowCode, type WorkflowStepCode } from "./workflow-code.ts";

const runner = testRunner();
const analyzer = createAnalyzer({ timeoutMs: 1000 });
let server: Server;
let origin = "";

before(async () => {
  server = createServer((req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ url: req.url })));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await Promise.all([runner.close(), analyzer.close()]);
  await new Promise((done) => server.close(done));
});


let next = 1;

/** Step codes by name; cellIds are `c_<name>`. */
const bundle = (steps: Record<string, string>) =>
  workflowCode(Object.entries(steps).map(([name, code]) => ({ cellId: `c_${name}`, name, code })));

interface Call {
  event?: unknown;
  props?: Record<string, unknown>;
  limits?: Partial<InvokeLimits>;
  fetchAllow?: string[];
}

/** A workflow whose successive runs share one warm instance, as the host would send them. */
function workflow(steps: Record<string, string>) {
  const code = bundle(steps);
  const sourceId = `p_${next}`;
  const codeHash = `wf-hash-${next++}`;
  return async (c: Call = {}): Promise<InvokeResult> => {
    const req: InvokeRequest = {
      type: "invoke", sourceId, codeHash, code, kind: "run", ...(c.event === undefined ? {} : { eventJson: JSON.stringify(c.event) }), props: c.props ?? {}, db: {}, dbEpoch: 1,
      limits: { ...LIMITS, ...c.limits }, fetchAllow: c.fetchAllow ?? [],
    };
    const reply = await runner.request<InvokeReply>(req, {
      deadlineMs: req.limits.timeoutMs + 5000,
      onTimeout: () => new AppError("internal", "runner deadline"),
      onCrash: () => new AppError("internal", "runner crashed"),
    });
    assert.ok(!("needCode" in reply), "unexpected needCode");
    return reply as InvokeResult;
  };
}

const run = (steps: Record<string, string>, c: Call = {}) => workflow(steps)(c);
const events = (r: InvokeResult) => r.emits.map((e) => JSON.parse(e.json));
const logs = (r: InvokeResult) => r.logs.map((l) => l.msg);

describe("workflow-code", () => {
  it("round-trips the steps; a component's own code is not a workflow", () => {
    const steps: WorkflowStepCode[] = [{ cellId: "c_1", name: "a", code: "export default {}" }];
    const code = workflowCode(steps);
    assert.ok(code.startsWith(WORKFLOW_MARKER));
    assert.deepEqual(parseWorkflowCode(code), steps);
    assert.equal(parseWorkflowCode("export default {}"), undefined);
    assert.throws(() => parseWorkflowCode(WORKFLOW_MARKER + '{"steps":[{"name":1}]}'), /malformed workflow code/);
  });
});

describe("workflow runs", () => {
  it("runs steps in order; each sees the trigger event, earlier $return_values and exports", async () => {
    const r = await run({
      first: `export default { async run({ steps, $ }) { $.export("seen", steps.trigger.event.n); return steps.trigger.event.n + 1; } }`,
      second: `export default defineComponent({ helper() { return 10; },
        async run({ steps }) { await new Promise((r) => setTimeout(r, 5)); return steps.first.$return_value * this.helper(); } })`,
      third: `export default { run({ steps, $ }) { $.send.emit({ raw_event: { first: steps.first, second: steps.second } }); } }`,
    }, { event: { n: 1 }, props: { ignored: 1 } });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{ first: { seen: 1, $return_value: 2 }, second: { $return_value: 20 } }]);
  });

  it("$.send.emit({raw_event}), $send.emit and $.send.emit(plain) emit on the default stream", async () => {
    const r = await run({
      a: `export default { run({ $ }) { $.send.emit({ raw_event: { x: 1 } }); $.send.emit({ plain: true }); $.send.emit("s"); } }`,
      b: `module.exports = { run() { $send.emit({ raw_event: [1, 2] }); $send.emit({ raw_event: null, other: 1 }); } };`,
    });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{ x: 1 }, { plain: true }, "s", [1, 2], null]);
    assert.deepEqual(r.emits.map((e) => e.meta), [{}, {}, {}, {}, {}]);
  });

  it("emits obey the invocation's limits", async () => {
    const r = await run({ a: `export default { run({ $ }) { $.send.emit("x".repeat(2000)); $.send.emit(1); } }` }, {
      limits: { maxEventBytes: 1000 },
    });
    assert.deepEqual([events(r), r.emitErrors.length], [[1], 1]);
    const many = await run({ a: `export default { run({ $ }) { for (let i = 0; i < 20; i++) $.send.emit(i); } }` }, {
      limits: { maxEmits: 10 },
    });
    assert.match(many.error?.message ?? "", /more than 10 \$emit calls/);
    assert.equal(many.error?.cellId, "c_a");
  });

  it("$.flow.exit() ends the run successfully, even when the step catches it", async () => {
    const later = `export default { run({ $ }) { $.send.emit("later"); } }`;
    const r = await run({
      a: `export default { run({ $ }) { $.send.emit("before"); $.flow.exit("done"); $.send.emit("after"); } }`,
      b: later,
    });
    assert.deepEqual([r.error, events(r)], [undefined, ["before"]]);
    const caught = await run({ a: `export default { run({ $ }) { try { $.flow.exit(); } catch {} return 1; } }`, b: later });
    assert.deepEqual([caught.error, events(caught)], [undefined, []]);
  });

  it("a throwing step ends the run with its cellId and code; later steps don't run", async () => {
    const first = `export default { run({ $ }) { console.log("one"); $.send.emit(1); } }`;
    const third = `export default { run() { console.log("three"); } }`;
    const coded = await run({
      first,
      second: `export default { async run() { await null; const e = new Error("bad input"); e.code = "E_BAD"; throw e; } }`,
      third,
    });
    assert.deepEqual(
      [coded.error?.name, coded.error?.message, coded.error?.cellId, coded.error?.code],
      ["Error", "bad input", "c_second", "E_BAD"],
    );
    assert.match(coded.error?.stack ?? "", /component\.mjs:1/);
    assert.deepEqual([coded.emits, logs(coded)], [[], ["one"]]);
    const plain = await run({ first, second: `export default { run() { throw new TypeError("plain"); } }`, third });
    assert.deepEqual([plain.error?.cellId, plain.error?.code, plain.error?.name], ["c_second", "TypeError", "TypeError"]);
    const text = await run({ first, second: `export default { run() { throw "text"; } }`, third });
    assert.deepEqual([text.error?.message, text.error?.code, logs(text)], ["text", "Error", ["one"]]);
  });

  it("console output of every step lands in logs", async () => {
    const r = await run({
      a: `export default { run() { console.log("from a", { n: 1 }); } }`,
      b: `export default { run() { console.warn("from b"); } }`,
    });
    assert.deepEqual(r.logs.map((l) => [l.level, l.msg]), [["log", "from a { n: 1 }"], ["warn", "from b"]]);
  });

  it("steps import provided modules, CommonJS and ESM mixed", async () => {
    const r = await run({
      plain: `export default { run() { return 1; } }`,
      get: `import axios from "axios";
        export default { async run({ steps }) { return (await axios.get(steps.trigger.event + "/x")).data; } }`,
      cjs: `const { axios } = require("@pipedream/platform");
        module.exports = { async run({ steps, $ }) { $.send.emit({ raw_event: [steps.get.$return_value, await axios(this, { url: steps.trigger.event + "/y" })] }); } };`,
    }, { event: origin, fetchAllow: [origin.replace("http://", "")] });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [[{ url: "/x" }, { url: "/y" }]]);
  });

  it("a warm instance keeps each step's module state across runs", async () => {
    const invoke = workflow({
      count: `let n = 0; export default { run() { return ++n; } }`,
      out: `export default { run({ steps, $ }) { $.send.emit(steps.count.$return_value); } }`,
    });
    assert.deepEqual(events(await invoke()), [1]);
    assert.deepEqual(events(await invoke()), [2]);
  });

  it("a workflow without steps runs and does nothing", async () => {
    const r = await run({});
    assert.deepEqual([r.error, r.emits, r.logs], [undefined, [], []]);
  });

  it("a timeout during a step carries its cellId; a step that fails to load too", async () => {
    const slow = await run({ a: `export default { run() {} }`, b: `export default { run() { for (;;); } }` }, {
      limits: { timeoutMs: 200 },
    });
    assert.deepEqual([slow.error?.name, slow.error?.cellId, slow.error?.code], ["TimeoutError", "c_b", "TimeoutError"]);
    const bad = await run({ a: `export default { run() {} }`, b: `export default {}` });
    assert.deepEqual([bad.error?.message, bad.error?.cellId], ['step "b": has no run method', "c_b"]);
  });
});

describe("workflow analysis", () => {
  const rejects = (steps: Record<string, string>, message: RegExp) =>
    assert.rejects(analyzer.analyze(bundle(steps)), (e: { code?: string; message?: string }) => {
      assert.equal(e.code, "invalid_component");
      assert.match(e.message ?? "", message);
      return true;
    });
  const ok = `export default { async run() {} }`;

  it("describes a valid workflow (and one without steps) as a workflow", async () => {
    const meta = { type: "workflow", props: [], hooks: [], methods: [], hasRun: true };
    assert.deepEqual(await analyzer.analyze(bundle({ a: ok, b: `module.exports = { run() {} };` })), meta);
    assert.deepEqual(await analyzer.analyze(bundle({})), meta);
  });

  it("names the bad step", async () => {
    await rejects({ a: ok, fetch: "export default {\n  run() {,\n}" }, /^step "fetch": syntax error: .*component\.mjs:2/);
    await rejects({ a: ok, b: `export default { name: "x" }` }, /^step "b": has no run method$/);
    await rejects({ a: ok, b: `export default 42;` }, /^step "b": no default export object$/);
    await rejects({ a: `import x from "left-pad"; export default x;` }, /^step "a": cannot import "left-pad": not a provided module$/);
    await rejects({ a: ok, b: `throw new RangeError("top")` }, /^step "b": component threw while evaluating: RangeError: top/);
    await rejects({ a: ok, b: `while (true) {}` }, /^step "b": component evaluation timed out/);
    await rejects({ a: `export default { get run() { for (;;); } }` }, /^step "a": component evaluation timed out/);
  });

  it("a malformed bundle is an invalid component", async () => {
    await assert.rejects(analyzer.analyze(`${WORKFLOW_MARKER}{"steps":`), /malformed workflow code/);
  });
});
