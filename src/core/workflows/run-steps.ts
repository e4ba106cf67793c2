import type { InvocationError, InvokeResult } from "../../runtime/protocol.ts";
import type { RunRow, WorkflowRow } from "../../store/port.ts";
import { resultMember, stepLogs, type RunState } from "./run-record.ts";
import { parseWait, type RunWait } from "./run-wait.ts";

// What the end of a step does to its run (workflows §3): the step's row takes its result; the run
// goes on to the next step, waits ($.flow.delay / suspend / rerun, a retry's backoff), or ends.
// Pure: the driver (run-driver.ts) commits the rows and acts on the answer.

/** What the run does after a step's commit. */
export type Next =
  /** run that step now */
  | ({ kind: "step" } & StepRun)
  /** the run waits (its row says until when); the engine takes it up again then */
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

/** the backoff before retry `attempt` (2, 3, ...): `base`, doubling */
export function retryDelayMs(base: number, attempt: number): number {
  return base * 2 ** Math.max(0, attempt - 2);
}

export interface SettleOptions {
  /** settings.retries: how many more times a failed step runs */
  retries: number;
  /** the first retry's backoff (doubling for each next one) */
  retryBaseMs: number;
}

/**
 * Applies a step's result to the run. Returns what comes next, and whether the step's error (if
 * any) goes on the workflow's $errors stream: only when no retry follows.
 */
export function settleStep(w: WorkflowRow, state: RunState, step: StepRun, r: InvokeResult, now: number, o: SettleOptions): { next: Next; reportError: boolean } {
  const { run } = state;
  const row = state.steps[step.idx]!;
  const report = r.steps?.find((s) => s.cellId === row.cell_id);
  state.dirty.add(step.idx);
  row.started_at_ms = report?.startedAt ?? now - Math.round(r.wallMs);
  row.ended_at_ms = report?.endedAt ?? now;
  row.attempts += 1;
  row.logs = stepLogs(r);
  // the trigger got the first response given; a later $.respond changes nothing
  // (a replay's request was answered when it was accepted: nobody gets its run's reply)
  if (r.response && run.response_status === null && run.replay_of === null) run.response_status = r.response.status;
  if (report?.summary !== undefined) run.summary = report.summary;

  if (r.error) {
    row.status = "failed";
    row.error = JSON.stringify({ name: r.error.name, message: r.error.message, stack: r.error.stack });
    row.return_value = null;
    row.exports = report?.exports ?? null;
    if (step.attempt <= o.retries) {
      // the run stays running: the step runs again after the backoff (workflows §3)
      const attempt = step.attempt + 1;
      wait(state, { kind: "retry", idx: step.idx, runs: step.runs, attempt, ...step.rerun }, now + retryDelayMs(o.retryBaseMs, attempt), "running");
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
    const w8: RunWait = { kind: "rerun", idx: step.idx, runs: step.runs, max: flow.max ?? 10 };
    if (flow.context !== undefined) w8.context = flow.context;
    wait(state, w8, now + flow.ms, "suspended");
    run.cursor = step.idx;
    return { next: { kind: "wait" }, reportError: false };
  }
  state.results.set(step.idx, resultMember(row));
  run.cursor = step.idx + 1;
  if (flow) {
    row.status = "suspended";
    wait(state, { kind: flow.kind, idx: step.idx, runs: step.runs }, now + flow.ms, "suspended");
    return { next: { kind: "wait" }, reportError: false };
  }
  return { next: advance(w, state, now), reportError: false };
}

/** After a step ended: the next one, or the run's end when it was the last. */
function advance(w: WorkflowRow, state: RunState, now: number): Next {
  const { run } = state;
  if (run.cursor >= w.steps.length) {
    end(state, "succeeded", now);
    return { kind: "end" };
  }
  run.status = "running";
  run.wait = null;
  run.due_at_ms = null;
  return { kind: "step", idx: run.cursor, runs: 1, attempt: 1 };
}

function wait(state: RunState, w: RunWait, due: number, status: "running" | "suspended"): void {
  // custom_response: a request whose run starts waiting without answering is answered 502
  noAnswer(state.run);
  state.run.status = status;
  state.run.wait = JSON.stringify(w);
  state.run.due_at_ms = due;
}

/**
 * The 502 an HTTP request waiting for its run got (workflows §4). A replay's request was answered
 * when it was accepted: nobody waits for its run's reply, which stays null.
 */
function noAnswer(run: RunRow): void {
  if (run.trigger_kind === "HTTP" && run.response_status === null && run.replay_of === null) run.response_status = 502;
}

function end(state: RunState, status: "succeeded" | "failed" | "exited", now: number): void {
  const { run } = state;
  run.status = status;
  run.ended_at_ms = now;
  run.due_at_ms = null;
  run.wait = null;
  // custom_response: a run that ended without answering answered 502 (workflows §4)
  noAnswer(run);
  for (const s of state.steps) {
    if (s.status === "pending" || s.status === "running") {
      s.status = "skipped";
      state.dirty.add(s.idx);
    }
  }
}

/**
 * A waiting run's time came (or its resume URL was called): what it does now. `step`: run that
 * step; `timeout`: its suspension timed out (the run fails, committed without running anything);
 * `advance`: the waiting step is over, go on (a step, or the run's end).
 */
export function afterWait(w: WorkflowRow, state: RunState, now: number): { next: Next; timeout?: InvocationError } {
  const { run } = state;
  const wt = parseWait(run.wait);
  if (!wt) {
    // running, with nothing to wait for: a node that ran it stopped; its next step runs again
    if (run.cursor >= w.steps.length) return { next: advance(w, state, now) };
    return { next: { kind: "step", idx: run.cursor, runs: 1, attempt: 1 } };
  }
  const row = state.steps[wt.idx];
  switch (wt.kind) {
    case "retry": {
      // a row from before `attempt` was kept: its `runs` held the try
      if (wt.attempt === undefined) return { next: { kind: "step", idx: wt.idx, runs: 1, attempt: wt.runs } };
      return { next: { kind: "step", idx: wt.idx, runs: wt.runs, attempt: wt.attempt, rerun: rerunOf(wt) } };
    }
    case "queued":
      return { next: { kind: "step", idx: wt.idx, runs: 1, attempt: 1 } };
    case "rerun":
      return { next: { kind: "step", idx: wt.idx, runs: wt.runs + 1, attempt: 1, rerun: rerunOf(wt) } };
    case "suspend":
      if (!wt.resumed) {
        const error = { name: "TimeoutError", message: "$.flow.suspend(): nobody resumed the run before its timeout", stack: "", cellId: row?.cell_id };
        if (row) {
          row.status = "failed";
          row.error = JSON.stringify({ name: error.name, message: error.message, stack: "" });
          state.dirty.add(wt.idx);
        }
        end(state, "failed", now);
        return { next: { kind: "end" }, timeout: error };
      }
      return resumedAfter(w, state, wt.idx, now);
    case "delay":
      return resumedAfter(w, state, wt.idx, now);
  }
}

/** a wait's rerun members (none for a step that never reran) */
function rerunOf(wt: Rerun): Rerun {
  return { ...(wt.context === undefined ? {} : { context: wt.context }), ...(wt.callback === undefined ? {} : { callback: wt.callback }) };
}

/** A delay or suspension is over: its step has ended, the run goes on after it. */
function resumedAfter(w: WorkflowRow, state: RunState, idx: number, now: number): { next: Next } {
  const row = state.steps[idx];
  if (row && row.status === "suspended") {
    row.status = "succeeded";
    state.dirty.add(idx);
  }
  state.run.cursor = Math.max(state.run.cursor, idx + 1);
  return { next: advance(w, state, now) };
}

/**
 * The run fails at step `idx` without its result (the store refused it): what the step gave is
 * dropped, so the failure itself can be written.
 */
export function failRun(w: WorkflowRow, state: RunState, idx: number, error: InvocationError, now: number): void {
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

/** Marks the run as taken up by this node: running, nothing to wait for. */
export function takeUp(state: RunState): void {
  state.run.status = "running";
  state.run.wait = null;
  state.run.due_at_ms = null;
}
