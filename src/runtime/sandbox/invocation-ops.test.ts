import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InvokeLimits } from "../protocol.ts";
import { DbState } from "./db-state.ts";
import { HOST_OPS } from "./host-ops.ts";
import { Invocation } from "./invocation.ts";
import { INVOCATION_OPS, runInvocationOp } from "./invocation-ops.ts";
import type { Running } from "./running.ts";

const here = import.meta.dirname;

/** the op names of isolate/host.js's InvocationOpArgs typedef, in its order */
function isolateSideOps(): string[] {
  const hostJs = readFileSync(join(here, "isolate/host.js"), "utf8");
  const typedef = hostJs.slice(hostJs.indexOf("@typedef {object} InvocationOpArgs"), hostJs.indexOf("*/", hostJs.indexOf("@typedef")));
  return [...typedef.matchAll(/@property \{\[.*?\]\} (\w+)/g)].map((match) => match[1]);
}

test("the isolate's list of invocation ops is the runner's, in the same order", () => {
  assert.deepEqual(isolateSideOps(), Object.keys(INVOCATION_OPS));
});

test("every op the isolate's files call by name has a handler on the runner", () => {
  const files = ["isolate", "provided"].flatMap((dir) =>
    readdirSync(join(here, dir))
      .filter((name) => name.endsWith(".js"))
      .map((name) => join(here, dir, name)),
  );
  const called = new Set<string>();
  const asked = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/\b(call|tell)\("(\w+)"/g)) called.add(match[2]);
    for (const match of text.matchAll(/\bcallAsync\("(\w+)"/g)) asked.add(match[1]);
  }
  for (const op of called) assert.ok(Object.hasOwn(INVOCATION_OPS, op) || Object.hasOwn(HOST_OPS, op), `no handler for "${op}"`);
  for (const kind of asked) assert.ok(["fetch", "store", "socket"].includes(kind), `no async call "${kind}"`);
  assert.ok(called.has("done") && called.has("log") && asked.has("fetch"), "the scan found the isolate's calls");
});

const LIMITS: InvokeLimits = {
  timeoutMs: 1000,
  memoryMb: 64,
  maxEmits: 10,
  maxEventBytes: 1024,
  maxLogLines: 10,
  maxLogLineBytes: 100,
  maxDbBytes: 1024,
  maxResultBytes: 10_000,
};

function running(): Running & { settled: number } {
  const state: Running & { settled: number } = {
    inv: new Invocation(LIMITS, DbState.fromObject({})),
    fetchAllow: [],
    deadline: Date.now() + 1000,
    entries: 0,
    firing: new Set(),
    fetches: 0,
    ended: false,
    finish: () => {},
    settled: 0,
    control: { settle: () => {}, fireTimer: () => {}, endIfSettled: () => state.settled++ },
  };
  return state;
}

test("outside an invocation only logging is quiet; a name that is no op fails, inherited ones too", () => {
  assert.equal(runInvocationOp(undefined, "log", ["log", "x"]), false);
  assert.throws(() => runInvocationOp(undefined, "dbGet", ["k"]), /only available while the component is invoked/);
  const run = running();
  for (const op of ["nope", "constructor", "toString", "__proto__", "hasOwnProperty"]) {
    assert.throws(() => runInvocationOp(run, op, []), new RegExp(`unknown host call "${op}"`));
  }
});

test("each op checks what the isolate sends", () => {
  const run = running();
  assert.throws(() => runInvocationOp(run, "timer", ["1", 5, false]), /bad timer/);
  assert.throws(() => runInvocationOp(run, "emits", [["json", 1, "name", "summary"]]), /malformed emit/);
  assert.throws(() => runInvocationOp(run, "async", [1, "exec", "ls"]), /unknown async host call "exec"/);
  assert.throws(() => runInvocationOp(run, "async", ["1", "fetch", {}]), /bad async call/);
  assert.throws(() => runInvocationOp(run, "storeNow", ["ds_1", "get", "k"]), /no data store/);
  assert.throws(() => runInvocationOp(run, "respond", [99, {}, "none", undefined, false]), /status must be an integer/);
  runInvocationOp(run, "step", ["c".repeat(1000)]);
  assert.equal(run.cellId?.length, 200);
  assert.equal(runInvocationOp(run, "log", ["nonsense", "hello"]), true);
  assert.deepEqual(run.inv.logs.map((line) => [line.level, line.msg]), [["log", "hello"]]);
});

test("done records the outcome, the waiting emits with it, and asks whether the run can end", () => {
  const run = running();
  runInvocationOp(run, "done", [null, ['{"a":1}', "id", undefined, undefined, 5]]);
  assert.equal(run.outcome, null);
  assert.equal(run.inv.emits.length, 1);
  assert.equal(run.settled, 1);

  const failed = running();
  runInvocationOp(failed, "done", [{ name: "TypeError", message: "no", stack: "", cellId: "c1", code: 42 }, []]);
  assert.deepEqual([failed.outcome?.name, failed.outcome?.cellId, failed.outcome?.code], ["TypeError", "c1", "TypeError"]);

  const refused = running();
  runInvocationOp(refused, "done", [null, "not a list"]);
  assert.deepEqual([refused.outcome?.name, refused.outcome?.message], ["TypeError", "malformed emit"]);
});
