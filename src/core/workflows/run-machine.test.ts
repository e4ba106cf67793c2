import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { InvokeResult, StepReport } from "../../runtime/protocol.ts";
import type { RunStepStatus, WorkflowRow } from "../../store/port.ts";
import { newRunState, type RunState } from "./run-record.ts";
import { phaseOf, storedAs, transition, type Next, type RunEvent, type RunPhase, type StoredPhase } from "./run-machine.ts";
import { outsideChange } from "./run-outside.ts";

// Every transition of a run, table by table: the phase it starts in, what happened, the phase
// it ends in, what the engine does next, and what becomes of the step rows.

const NOW = 1_000_000;
const settings = { retries: 1, retryBaseMs: 100 };

function workflow(steps: number): WorkflowRow {
  return {
    id: "p_w",
    user_id: "u_1",
    name: "w",
    deployment_id: "d_1",
    active: true,
    trigger: { type: "http", custom_response: false },
    steps: Array.from({ length: steps }, (_, i) => ({ id: `c_${i}`, name: `s${i}`, code: "" })),
  } as unknown as WorkflowRow;
}

/** a run of `w` at `cursor`, in `phase`, its steps before the cursor succeeded (the one a wait is about: `waitStep`) */
function runIn(w: WorkflowRow, phase: RunPhase, cursor = 0, waitStep?: RunStepStatus): RunState {
  const state = newRunState(w, "u_1", { id: "r_1", startedAt: NOW - 10, trigger: "HTTP", eventJson: "{}" }, "v");
  Object.assign(state.run, storedAs(phase), { cursor });
  for (const s of state.steps) if (s.idx < cursor) s.status = "succeeded";
  if (waitStep && phase.kind !== "driving" && phase.kind !== "ended") state.steps[phase.wait.idx]!.status = waitStep;
  state.dirty.clear();
  return state;
}

function result(report: Partial<StepReport> = {}, error?: string): InvokeResult {
  const r: InvokeResult = { emits: [], db: null, logs: [], emitErrors: [], wallMs: 5, steps: [{ cellId: "c_0", ...report } as StepReport] };
  if (error) r.error = { name: "Error", message: error, stack: "" };
  return r;
}

const first: Next = { kind: "step", idx: 0, runs: 1, attempt: 1 };
const delay = (idx: number, resumed?: boolean): RunPhase => ({ kind: "delayed", wait: { kind: "delay", idx, runs: 1, ...(resumed ? { resumed } : {}) }, dueAt: NOW });
const suspend = (idx: number, resumed?: boolean): RunPhase => ({ kind: "suspended", wait: { kind: "suspend", idx, runs: 1, ...(resumed ? { resumed } : {}) }, dueAt: NOW });

describe("the codec", () => {
  const phases: RunPhase[] = [
    { kind: "driving" },
    { kind: "waking", wait: { kind: "delay", idx: 0, runs: 1 } },
    { kind: "queued", wait: { kind: "queued", idx: 0, runs: 1 }, dueAt: null },
    { kind: "retrying", wait: { kind: "retry", idx: 1, runs: 1, attempt: 2 }, dueAt: NOW },
    delay(0),
    { kind: "suspended", wait: { kind: "suspend", idx: 0, runs: 1 }, dueAt: null },
    { kind: "rerunning", wait: { kind: "rerun", idx: 0, runs: 2, max: 10 }, dueAt: NOW },
    { kind: "ended", status: "cancelled" },
  ];
  for (const phase of phases) {
    test(`${phase.kind} is stored and read back as itself`, () => assert.deepEqual(phaseOf(storedAs(phase)), phase));
  }
  test("a replay written by an older node (running, queued, due) reads as queued", () => {
    assert.equal(phaseOf({ status: "running", wait: '{"kind":"queued","idx":0,"runs":1}', due_at_ms: NOW }).kind, "queued");
  });
});

interface Case {
  name: string;
  steps: number;
  from: RunPhase;
  cursor?: number;
  waitStep?: RunStepStatus;
  event: RunEvent;
  phase: RunPhase["kind"];
  status?: string;
  next: Next["kind"];
  nextStep?: Partial<Next>;
  reportError?: boolean;
  rows?: RunStepStatus[];
}

const stepEnded = (report: Partial<StepReport>, error?: string, attempt = 1): RunEvent => ({ type: "stepEnded", step: { idx: 0, runs: 1, attempt }, result: result(report, error), settings });

const cases: Case[] = [
  { name: "admitted: its first step runs", steps: 2, from: { kind: "driving" }, event: { type: "admitted" }, phase: "driving", next: "step", nextStep: first },
  { name: "admitted with no steps: it ends, succeeded", steps: 0, from: { kind: "driving" }, event: { type: "admitted" }, phase: "ended", status: "succeeded", next: "end" },
  { name: "turned away: queued", steps: 1, from: { kind: "driving" }, event: { type: "turnedAway", retryAt: null }, phase: "queued", next: "wait" },
  { name: "a step succeeded: the next runs", steps: 2, from: { kind: "driving" }, event: stepEnded({}), phase: "driving", next: "step", nextStep: { idx: 1 }, rows: ["succeeded", "pending"] },
  { name: "the last step succeeded: ended, succeeded", steps: 1, from: { kind: "driving" }, event: stepEnded({}), phase: "ended", status: "succeeded", next: "end", rows: ["succeeded"] },
  { name: "a step failed with a retry left: retrying", steps: 2, from: { kind: "driving" }, event: stepEnded({}, "boom"), phase: "retrying", next: "wait", reportError: false, rows: ["failed", "pending"] },
  { name: "a step failed, no retry left: ended, failed, the rest skipped", steps: 2, from: { kind: "driving" }, event: stepEnded({}, "boom", 2), phase: "ended", status: "failed", next: "end", reportError: true, rows: ["failed", "skipped"] },
  { name: "$.flow.exit(): ended, exited", steps: 2, from: { kind: "driving" }, event: stepEnded({ status: "exited" }), phase: "ended", status: "exited", next: "end", rows: ["succeeded", "skipped"] },
  { name: "$.flow.delay(): delayed", steps: 2, from: { kind: "driving" }, event: stepEnded({ flow: { kind: "delay", ms: 50 } }), phase: "delayed", next: "wait", rows: ["suspended", "pending"] },
  { name: "$.flow.suspend(): suspended", steps: 2, from: { kind: "driving" }, event: stepEnded({ flow: { kind: "suspend", ms: 50 } }), phase: "suspended", next: "wait", rows: ["suspended", "pending"] },
  { name: "$.flow.rerun(): rerunning", steps: 2, from: { kind: "driving" }, event: stepEnded({ flow: { kind: "rerun", ms: 50, max: 3 } }), phase: "rerunning", next: "wait", rows: ["suspended", "pending"] },
  { name: "a delay's time came: the next step", steps: 2, from: delay(0), cursor: 1, waitStep: "suspended", event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: { idx: 1 }, rows: ["succeeded", "pending"] },
  { name: "a delay of the last step over: ended, succeeded", steps: 1, from: delay(0), cursor: 1, waitStep: "suspended", event: { type: "takenUp" }, phase: "ended", status: "succeeded", next: "end", rows: ["succeeded"] },
  { name: "a suspension resumed: the next step", steps: 2, from: suspend(0, true), cursor: 1, waitStep: "suspended", event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: { idx: 1 } },
  { name: "a suspension timed out: ended, failed, reported", steps: 2, from: suspend(0), cursor: 1, waitStep: "suspended", event: { type: "takenUp" }, phase: "ended", status: "failed", next: "end", reportError: true, rows: ["failed", "skipped"] },
  { name: "a retry's backoff over: the same step, next try", steps: 1, from: { kind: "retrying", wait: { kind: "retry", idx: 0, runs: 1, attempt: 2 }, dueAt: NOW }, event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: { idx: 0, attempt: 2, runs: 1 } },
  { name: "a rerun's time came: the same step, next execution", steps: 1, from: { kind: "rerunning", wait: { kind: "rerun", idx: 0, runs: 1, max: 10 }, dueAt: NOW }, waitStep: "suspended", event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: { idx: 0, runs: 2, attempt: 1 } },
  { name: "a queued run has room: its first step", steps: 1, from: { kind: "queued", wait: { kind: "queued", idx: 0, runs: 1 }, dueAt: null }, event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: first },
  { name: "claimed, then its node stopped: the wait's step again", steps: 1, from: { kind: "waking", wait: { kind: "retry", idx: 0, runs: 1, attempt: 2 } }, event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: { idx: 0, attempt: 2 } },
  { name: "orphaned while driving: its cursor's step again", steps: 3, from: { kind: "driving" }, cursor: 2, event: { type: "takenUp" }, phase: "driving", next: "step", nextStep: { idx: 2, attempt: 1 } },
  { name: "a step's commit refused: ended, failed", steps: 2, from: { kind: "driving" }, event: { type: "refused", idx: 0, error: { name: "InternalError", message: "x", stack: "" } }, phase: "ended", status: "failed", next: "end", reportError: true, rows: ["failed", "skipped"] },
];

describe("transition", () => {
  for (const c of cases) {
    test(c.name, () => {
      const w = workflow(c.steps);
      const state = runIn(w, c.from, c.cursor ?? 0, c.waitStep);
      const out = transition(w, state, c.event, NOW);
      const phase = phaseOf(state.run);
      assert.equal(phase.kind, c.phase);
      if (c.status) assert.equal(state.run.status, c.status);
      if (phase.kind === "ended") assert.equal(state.run.ended_at_ms, NOW);
      assert.equal(out.next.kind, c.next);
      if (c.nextStep) for (const [k, v] of Object.entries(c.nextStep)) assert.equal((out.next as Record<string, unknown>)[k], v, k);
      if (c.reportError !== undefined) assert.equal(out.reportError, c.reportError);
      if (c.rows) assert.deepEqual(state.steps.map((s) => s.status), c.rows);
    });
  }

  test("a custom_response run that starts waiting unanswered answered 502", () => {
    const w = workflow(2);
    (w.trigger as { custom_response: boolean }).custom_response = true;
    const state = runIn(w, { kind: "driving" });
    state.run.response_status = null;
    transition(w, state, stepEnded({ flow: { kind: "delay", ms: 5 } }), NOW);
    assert.equal(state.run.response_status, 502);
  });

  test("a run no request started (run now, a replay, a retry) records no reply, neither its $.respond nor a 502", () => {
    for (const startedBy of ["run_now", "replay", "retry"] as const) {
      const w = workflow(2);
      (w.trigger as { custom_response: boolean }).custom_response = true;
      const responded = runIn(w, { kind: "driving" });
      Object.assign(responded.run, { response_status: null, started_by: startedBy });
      const answered = stepEnded({});
      if (answered.type === "stepEnded") answered.result.response = { status: 201, headers: {}, body: "" };
      transition(w, responded, answered, NOW);
      assert.equal(responded.run.response_status, null, `${startedBy}: $.respond`);
      const unanswered = runIn(w, { kind: "driving" });
      Object.assign(unanswered.run, { response_status: null, started_by: startedBy });
      transition(w, unanswered, stepEnded({ flow: { kind: "delay", ms: 5 } }), NOW);
      assert.equal(unanswered.run.response_status, null, `${startedBy}: ended unanswered`);
    }
  });
});

describe("outsideChange", () => {
  const stored = (phase: RunPhase): StoredPhase => storedAs(phase);
  const request = "{}";
  const table: Array<{ name: string; from: RunPhase; action: Parameters<typeof outsideChange>[1]; ok: boolean; conflict?: RegExp; to?: Partial<StoredPhase> }> = [
    { name: "cancel a delayed run", from: delay(0), action: { type: "cancel" }, ok: true, to: { status: "cancelled", wait: null } },
    { name: "cancel a driving run", from: { kind: "driving" }, action: { type: "cancel" }, ok: true, to: { status: "cancelled" } },
    { name: "cancel an ended run", from: { kind: "ended", status: "succeeded" }, action: { type: "cancel" }, ok: false, conflict: /has ended: succeeded/ },
    { name: "cancel a delay resumed first: the resume won", from: delay(0, true), action: { type: "cancel" }, ok: false, conflict: /was resumed/ },
    { name: "cancel a rerun resumed first", from: { kind: "rerunning", wait: { kind: "rerun", idx: 0, runs: 1, max: 3, callback: "{}" }, dueAt: NOW }, action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: false, conflict: /was resumed/ },
    { name: "cancel a run resumed and claimed: the resume won until its next step commits", from: { kind: "waking", wait: { kind: "delay", idx: 0, runs: 1, resumed: true } }, action: { type: "cancel" }, ok: false, conflict: /resumed, and its next step is starting/ },
    { name: "cancel a run whose delay ended by itself, its next step starting: after that step", from: { kind: "waking", wait: { kind: "delay", idx: 0, runs: 1 } }, action: { type: "cancel" }, ok: true, to: { status: "cancelled" } },
    { name: "cancel a run taken up from the queue, its first step starting", from: { kind: "waking", wait: { kind: "queued", idx: 0, runs: 1 } }, action: { type: "cancel" }, ok: true, to: { status: "cancelled" } },
    { name: "cancel a run whose retry is starting", from: { kind: "waking", wait: { kind: "retry", idx: 0, runs: 1, attempt: 2 } }, action: { type: "cancel" }, ok: true },
    { name: "cancel a run whose rerun is starting by itself", from: { kind: "waking", wait: { kind: "rerun", idx: 0, runs: 1, max: 3 } }, action: { type: "cancel" }, ok: true },
    { name: "cancel a run whose rerun was resumed and is starting", from: { kind: "waking", wait: { kind: "rerun", idx: 0, runs: 1, max: 3, callback: "{}" } }, action: { type: "cancel" }, ok: false, conflict: /resumed/ },
    { name: "a cancel URL while a step runs", from: { kind: "driving" }, action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: false, conflict: /not waiting any more/ },
    { name: "a cancel URL of a wait that ended by itself, its next step starting", from: { kind: "waking", wait: { kind: "delay", idx: 0, runs: 1 } }, action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: false, conflict: /wait is over/ },
    { name: "a cancel URL of a waiting run", from: suspend(0), action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: true, to: { status: "cancelled" } },
    { name: "a cancel URL of an earlier wait, the run waiting again later", from: suspend(1), action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: false, conflict: /not waiting for this URL/ },
    { name: "a cancel URL of a rerun's earlier execution", from: { kind: "rerunning", wait: { kind: "rerun", idx: 0, runs: 2, max: 3 }, dueAt: NOW + 5 }, action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: false, conflict: /not waiting for this URL/ },
    { name: "a cancel URL of an earlier wait, the run in a retry's backoff", from: { kind: "retrying", wait: { kind: "retry", idx: 2, runs: 1, attempt: 2 }, dueAt: NOW }, action: { type: "cancel", url: { idx: 0, runs: 1 } }, ok: false, conflict: /not waiting for this URL/ },
    { name: "cancel a queued run", from: { kind: "queued", wait: { kind: "queued", idx: 0, runs: 1 }, dueAt: null }, action: { type: "cancel" }, ok: true },
    { name: "cancel a retry's backoff", from: { kind: "retrying", wait: { kind: "retry", idx: 0, runs: 1, attempt: 2 }, dueAt: NOW }, action: { type: "cancel" }, ok: true },
    { name: "resume a delay", from: delay(0), action: { type: "resume", request }, ok: true, to: { status: "suspended", due_at_ms: NOW } },
    { name: "resume a delay twice", from: delay(0, true), action: { type: "resume", request }, ok: false, conflict: /resumed already/ },
    { name: "resume a rerun", from: { kind: "rerunning", wait: { kind: "rerun", idx: 0, runs: 1, max: 3 }, dueAt: NOW + 5 }, action: { type: "resume", request }, ok: true, to: { due_at_ms: NOW } },
    { name: "resume a running run", from: { kind: "driving" }, action: { type: "resume", request }, ok: false, conflict: /running, not suspended/ },
    { name: "resume a queued run", from: { kind: "queued", wait: { kind: "queued", idx: 0, runs: 1 }, dueAt: null }, action: { type: "resume", request }, ok: false, conflict: /not waiting to be resumed/ },
    { name: "a resume URL of another wait", from: suspend(1), action: { type: "resume", request, url: { idx: 0, runs: 1 } }, ok: false, conflict: /not waiting for this URL/ },
    { name: "a resume URL of this wait", from: suspend(1), action: { type: "resume", request, url: { idx: 1, runs: 1 } }, ok: true },
  ];
  for (const c of table) {
    test(c.name, () => {
      const change = outsideChange(stored(c.from), c.action, NOW);
      assert.equal(change.ok, c.ok);
      if (!change.ok) assert.match(change.conflict, c.conflict!);
      else {
        assert.deepEqual(change.from, stored(c.from));
        for (const [k, v] of Object.entries(c.to ?? {})) assert.equal(change.to[k as keyof StoredPhase], v, k);
      }
    });
  }
});
