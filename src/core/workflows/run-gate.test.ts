import { test } from "node:test";
import assert from "node:assert/strict";
import type { WorkflowRow } from "../../store/port.ts";
import { RunGate } from "./run-gate.ts";

const workflow = (settings: WorkflowRow["settings"]): WorkflowRow => ({ id: "p_1", settings }) as WorkflowRow;

test("concurrency: a run starts while fewer than n are driven; one back from a wait too; a rate limits starts only", () => {
  const gate = new RunGate();
  const w = workflow({ concurrency: 2, rate: { limit: 3, per_seconds: 10 } });
  assert.deepEqual(gate.tryStart(w, 0), { ok: true });
  assert.equal(gate.tryContinue(w), true);
  assert.deepEqual(gate.tryStart(w, 1), { ok: false, retryAt: null });
  assert.equal(gate.tryContinue(w), false);
  gate.idle(w);
  assert.deepEqual(gate.tryStart(w, 2), { ok: true });
  gate.idle(w);
  gate.idle(w);
  assert.deepEqual(gate.tryStart(w, 3), { ok: true }, "the 3rd start in 10 s");
  gate.idle(w);
  assert.deepEqual(gate.tryStart(w, 4), { ok: false, retryAt: 10_000 }, "the 4th start in 10 s waits for the window");
  assert.equal(gate.tryContinue(w), true, "a run back from a wait is not a start");
});

test("a queue: new runs go behind the runs waiting in it until it is empty", () => {
  const gate = new RunGate();
  const w = workflow({ concurrency: 1 });
  assert.equal(gate.queueAhead(w), false);
  gate.enqueued(w);
  gate.enqueued(w);
  assert.equal(gate.queueAhead(w), true);
  gate.dequeued(w);
  assert.equal(gate.queueAhead(w), true);
  gate.dequeued(w);
  assert.equal(gate.queueAhead(w), false);
  gate.enqueued(w);
  gate.queueEmpty(w);
  assert.equal(gate.queueAhead(w), false, "the store found none queued (one was cancelled)");
  gate.enqueued(workflow({}));
  assert.equal(gate.queueAhead(workflow({})), false, "without concurrency there is no queue to join");
});
