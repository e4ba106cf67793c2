import type { InvocationError, InvokeResult } from "../../runtime/protocol.ts";
import type { RunRow, RunStatus, RunStepStatus, WorkflowRow } from "../../store/port.ts";
import { answersNobody, resultMember, stepLogs, type RunState } from "./run-record.ts";
import { parseWait, type RunWait } from "./run-wait.ts";

// Every way a run changes state, in one place (docs/architecture.md draws it). A run is in one
// phase at a time; the phase is stored in three columns of its row (status, wait, due_at_ms),
// and `phaseOf` / `storedAs` are the one codec between the two. The engine reports what happened
// to a run through `transition` (a step ended, it was taken up, its commit was refused...) and
// acts on what comes back (`next`): run a step, wait, or nothing more. What changes a run from
// outside (a resume URL, a cancel) is `outsideChange` (run-outside.ts): the store applies it as one conditional
// update, so a run that changed meanwhile is not changed twice.

type Wait<K extends RunWait["kind"]> = Extract<RunWait, { kind: K }>;

export type EndStatus = Exclude<RunStatus, "running" | "suspended">;

/** Where a run is in its life. */
export type RunPhase =
  /** a node runs its step `cursor` now (a row read so with no node driving it is an orphan) */
  | { kind: "driving" }
  /** its wait is over and a node has claimed it: the node acts on `wait` (a crash leaves it so) */
  | { kind: "waking"; wait: RunWait }
  /** waits for room (settings.concurrency / rate), nothing run yet; `dueAt` null: when a run of its workflow ends */
  | { kind: "queued"; wait: Wait<"queued">; dueAt: number | null }
  /** its step `wait.idx` failed and runs again at `dueAt` (settings.retries) */
  | { kind: "retrying"; wait: Wait<"retry">; dueAt: number | null }
  /** $.flow.delay: the next step starts at `dueAt`, or when resumed */
  | { kind: "delayed"; wait: Wait<"delay">; dueAt: number | null }
  /** $.flow.suspend: the next step starts when resumed; at `dueAt` (its timeout) the run fails */
  | { kind: "suspended"; wait: Wait<"suspend">; dueAt: number | null }
  /** $.flow.rerun: the same step runs again at `dueAt`, or when resumed */
  | { kind: "rerunning"; wait: Wait<"rerun">; dueAt: number | null }
  | { kind: "ended"; status: EndStatus };

const PHASE_OF_WAIT = { queued: "queued", retry: "retrying", delay: "delayed", suspend: "suspended", rerun: "rerunning" } as const;

/** The columns a run's phase is stored in. */
export type StoredPhase = Pick<RunRow, "status" | "wait" | "due_at_ms">;

/** The phase a run's row is in. */
export function phaseOf(row: StoredPhase): RunPhase {
  if (row.status !== "running" && row.status !== "suspended") return { kind: "ended", status: row.status };
  const wait = parseWait(row.wait);
  if (!wait) return { kind: "driving" };
  // a claim makes a waiting run running with no due time, its wait kept
  if (row.status === "running" && row.due_at_ms === null) return { kind: "waking", wait };
  return { kind: PHASE_OF_WAIT[wait.kind], wait, dueAt: row.due_at_ms } as RunPhase;
}

/** The columns that store `phase`. A retry's backoff stays `running`: the run is not suspended. */
export function storedAs(phase: RunPhase): StoredPhase {
  switch (phase.kind) {
    case "driving":
      return { status: "running", wait: null, due_at_ms: null };
    case "waking":
      return { status: "running", wait: JSON.stringify(phase.wait), due_at_ms: null };
    case "retrying":
      return { status: "running", wait: JSON.stringify(phase.wait), due_at_ms: phase.dueAt };
    case "queued":
    case "delayed":
    case "suspended":
    case "rerunning":
      return { status: "suspended", wait: JSON.stringify(phase.wait), due_at_ms: phase.dueAt };
    case "ended":
      return { status: phase.status, wait: null, due_at_ms: null };
  }
}

/** A run that waits for room, as it is first written (`dueAt`: when to try, null: when a run ends). */
export function queuedPhase(dueAt: number | null): RunPhase {
  return { kind: "queued", wait: { kind: "queued", idx: 0, runs: 1 }, dueAt };
}

/** What becomes of the steps a run had not ended when it ends, whatever ended it (cancel included). */
export const STEPS_AT_END: Readonly<Partial<Record<RunStepStatus, RunStepStatus>>> = { pending: "skipped", running: "skipped", suspended: "succeeded" };

/** What the engine does after a transition. */
export type Next =
  /** run that step now */
  | ({ kind: "step" } & StepRun)
  /** the run waits (its row says until when); the waker takes it up again then */
  | { kind: "wait" }
  | { kind: "end" };

export interface StepRun {
  idx: number;
  /** the step's execution count ($.context.run.runs): 1, then one more per rerun */
  runs: number;
  /** 1 for the first try, then one more per retry */
  attempt: number;
  /** what the $.flow.rerun() that made this execution gave it (kept for its retries) */
  rerun?: Rerun;
}

/** a rerun's context and the request that called its resume URL, as JSON */
export type Rerun = { context?: string; callback?: string };

export interface RetrySettings {
  /** settings.retries: how many more times a failed step runs */
  retries: number;
  /** the first retry's backoff (doubling for each next one) */
  retryBaseMs: number;
}

/** What happened to a run, as the engine reports it. */
export type RunEvent =
  /** a new run may start now: its first step runs (a workflow with none ends at once) */
  | { type: "admitted" }
  /** a new or queued run may not start yet (settings.concurrency / rate): it waits, queued */
  | { type: "turnedAway"; retryAt: number | null }
  /** a step's invocation ended with `result` */
  | { type: "stepEnded"; step: StepRun; result: InvokeResult; settings: RetrySettings }
  /** a waiting run's time came, or it was resumed, or a stopped node left it running: what now */
  | { type: "takenUp" }
  /** the store refused a step's result for a reason of the result's own: the run fails there */
  | { type: "refused"; idx: number; error: InvocationError };

export interface Transition {
  next: Next;
  /** the step's error (or `error` below) goes on the workflow's $errors: no retry follows */
  reportError: boolean;
  /** the run failed without a step's error to report (a suspension timed out) */
  error?: InvocationError;
}

/** the backoff before retry `attempt` (2, 3, ...): `base`, doubling */
export function retryDelayMs(base: number, attempt: number): number {
  return base * 2 ** Math.max(0, attempt - 2);
}

/**
 * Applies `event` to the run held in `state` (its row and its steps' rows change in place, each
 * changed step marked dirty for the next commit) and says what the engine does next.
 */
export function transition(workflow: WorkflowRow, state: RunState, event: RunEvent, now: number): Transition {
  switch (event.type) {
    case "admitted":
      if (workflow.steps.length === 0) return { next: advance(workflow, state, now), reportError: false };
      enter(state, { kind: "driving" });
      return { next: firstTry(0), reportError: false };
    case "turnedAway":
      enter(state, queuedPhase(event.retryAt));
      return { next: { kind: "wait" }, reportError: false };
    case "stepEnded":
      return stepEnded(workflow, state, event.step, event.result, now, event.settings);
    case "takenUp":
      return takenUp(workflow, state, now);
    case "refused":
      refused(state, event.idx, event.error, now);
      return { next: { kind: "end" }, reportError: true, error: event.error };
  }
}

const firstTry = (idx: number): Next => ({ kind: "step", idx, runs: 1, attempt: 1 });

/** A step's result applied to the run: it goes on, waits ($.flow, a retry's backoff), or ends. */
function stepEnded(workflow: WorkflowRow, state: RunState, step: StepRun, result: InvokeResult, now: number, retrySettings: RetrySettings): Transition {
  const { run } = state;
  const row = state.steps[step.idx]!;
  const report = result.steps?.find((s) => s.cellId === row.cell_id);
  state.dirty.add(step.idx);
  row.started_at_ms = report?.startedAt ?? now - Math.round(result.wallMs);
  row.ended_at_ms = report?.endedAt ?? now;
  row.attempts += 1;
  row.logs = stepLogs(result);
  // the trigger got the first response given; a later $.respond changes nothing
  // (a replay's request was answered when it was accepted: nobody gets its run's reply)
  if (result.response && run.response_status === null && !answersNobody(run)) run.response_status = result.response.status;
  if (report?.summary !== undefined) run.summary = report.summary;

  if (result.error) {
    row.status = "failed";
    row.error = JSON.stringify({ name: result.error.name, message: result.error.message, stack: result.error.stack });
    row.return_value = null;
    row.exports = report?.exports ?? null;
    if (step.attempt <= retrySettings.retries) {
      // the run stays running: the step runs again after the backoff
      const attempt = step.attempt + 1;
      waitFor(state, { kind: "retrying", wait: { kind: "retry", idx: step.idx, runs: step.runs, attempt, ...step.rerun }, dueAt: now + retryDelayMs(retrySettings.retryBaseMs, attempt) });
      return { next: { kind: "wait" }, reportError: false };
    }
    end(state, "failed", now);
    return { next: { kind: "end" }, reportError: true };
  }

  row.status = "succeeded";
  row.error = null;
  row.return_value = report?.returnValue ?? null;
  row.exports = report?.exports ?? null;
  if (report?.status === "exited") {
    end(state, "exited", now);
    return { next: { kind: "end" }, reportError: false };
  }
  const flow = report?.flow;
  if (flow?.kind === "rerun") {
    // the step runs again: its value this time is not a result the next steps see
    row.status = "suspended";
    const rerunWait: Wait<"rerun"> = { kind: "rerun", idx: step.idx, runs: step.runs, max: flow.max ?? 10 };
    if (flow.context !== undefined) rerunWait.context = flow.context;
    waitFor(state, { kind: "rerunning", wait: rerunWait, dueAt: now + flow.ms });
    run.cursor = step.idx;
    return { next: { kind: "wait" }, reportError: false };
  }
  state.results.set(step.idx, resultMember(row));
  run.cursor = step.idx + 1;
  if (flow) {
    row.status = "suspended";
    const waitKind = { kind: flow.kind, idx: step.idx, runs: step.runs } as const;
    waitFor(state, flow.kind === "delay" ? { kind: "delayed", wait: waitKind as Wait<"delay">, dueAt: now + flow.ms } : { kind: "suspended", wait: waitKind as Wait<"suspend">, dueAt: now + flow.ms });
    return { next: { kind: "wait" }, reportError: false };
  }
  return { next: advance(workflow, state, now), reportError: false };
}

/** A waiting (or orphaned) run taken up: the step it runs now, a timeout, or its end. */
function takenUp(workflow: WorkflowRow, state: RunState, now: number): Transition {
  const { run } = state;
  const phase = phaseOf(run);
  const wait = phase.kind === "driving" || phase.kind === "ended" ? undefined : phase.wait;
  let next: Next;
  if (!wait) {
    // running, with nothing to wait for: a node that ran it stopped; its next step runs again
    if (run.cursor >= workflow.steps.length) return { next: advance(workflow, state, now), reportError: false };
    next = firstTry(run.cursor);
  } else {
    switch (wait.kind) {
      case "retry":
        // a row from before `attempt` was kept: its `runs` held the try
        next = wait.attempt === undefined ? { kind: "step", idx: wait.idx, runs: 1, attempt: wait.runs } : { kind: "step", idx: wait.idx, runs: wait.runs, attempt: wait.attempt, rerun: rerunOf(wait) };
        break;
      case "queued":
        next = firstTry(wait.idx);
        break;
      case "rerun":
        next = { kind: "step", idx: wait.idx, runs: wait.runs + 1, attempt: 1, rerun: rerunOf(wait) };
        break;
      case "suspend":
        if (!wait.resumed) return suspendTimedOut(state, wait.idx, now);
        return { next: resumedAfter(workflow, state, wait.idx, now), reportError: false };
      case "delay":
        return { next: resumedAfter(workflow, state, wait.idx, now), reportError: false };
    }
  }
  enter(state, { kind: "driving" });
  return { next, reportError: false };
}

function suspendTimedOut(state: RunState, idx: number, now: number): Transition {
  const row = state.steps[idx];
  const error: InvocationError = { name: "TimeoutError", message: "$.flow.suspend(): nobody resumed the run before its timeout", stack: "", ...(row ? { cellId: row.cell_id } : {}) };
  if (row) {
    row.status = "failed";
    row.error = JSON.stringify({ name: error.name, message: error.message, stack: "" });
    state.dirty.add(idx);
  }
  end(state, "failed", now);
  return { next: { kind: "end" }, reportError: true, error };
}

/** a wait's rerun members (none for a step that never reran) */
function rerunOf(wait: Rerun): Rerun {
  return { ...(wait.context === undefined ? {} : { context: wait.context }), ...(wait.callback === undefined ? {} : { callback: wait.callback }) };
}

/** A delay or suspension is over: its step has ended, the run goes on after it. */
function resumedAfter(workflow: WorkflowRow, state: RunState, idx: number, now: number): Next {
  const row = state.steps[idx];
  if (row && row.status === "suspended") {
    row.status = "succeeded";
    state.dirty.add(idx);
  }
  state.run.cursor = Math.max(state.run.cursor, idx + 1);
  return advance(workflow, state, now);
}

/** After a step ended: the next one, or the run's end when it was the last. */
function advance(workflow: WorkflowRow, state: RunState, now: number): Next {
  if (state.run.cursor >= workflow.steps.length) {
    end(state, "succeeded", now);
    return { kind: "end" };
  }
  enter(state, { kind: "driving" });
  return firstTry(state.run.cursor);
}

/** The run fails at step `idx` without its result: what the step gave is dropped, so the failure can be written. */
function refused(state: RunState, idx: number, error: InvocationError, now: number): void {
  const row = state.steps[idx];
  if (row) {
    Object.assign(row, { status: "failed", return_value: null, exports: null, logs: null, ended_at_ms: now });
    row.error = JSON.stringify({ name: error.name, message: error.message, stack: error.stack });
    state.dirty.add(idx);
  }
  state.run.summary = null;
  state.logs.length = 0;
  end(state, "failed", now);
}

function enter(state: RunState, phase: RunPhase): void {
  Object.assign(state.run, storedAs(phase));
}

function waitFor(state: RunState, phase: RunPhase): void {
  // custom_response: a request whose run starts waiting without answering is answered 502
  noAnswer(state.run);
  enter(state, phase);
}

/**
 * The 502 an HTTP request waiting for its run got. A replay's request was answered when it was
 * accepted: nobody waits for its run's reply, which stays null.
 */
function noAnswer(run: RunRow): void {
  if (run.trigger_kind === "HTTP" && run.response_status === null && !answersNobody(run)) run.response_status = 502;
}

function end(state: RunState, status: EndStatus, now: number): void {
  enter(state, { kind: "ended", status });
  state.run.ended_at_ms = now;
  // custom_response: a run that ended without answering answered 502
  noAnswer(state.run);
  for (const s of state.steps) {
    const after = STEPS_AT_END[s.status];
    if (after) {
      s.status = after;
      state.dirty.add(s.idx);
    }
  }
}
