import type { InvokeResult, LogLine } from "../../runtime/protocol.ts";
import type { RunRow, RunStartedBy, RunStepRow, WorkflowRow } from "../../store/port.ts";
import { workflowContext, type InvocationContext } from "../runtime/error-events.ts";
import { partitionOf } from "../cluster/partition.ts";
import { phaseOf } from "./run-machine.ts";

// The record of one run (docs/writing-workflows.md) as the engine holds it between its steps: the run's row,
// a row per step of the workflow, and the results of the steps that ended, as the JSON members
// the next steps read as `steps`. Each step's commit writes the rows it changed (run-machine.ts
// decides what a step's end does to them).

export interface RunState {
  run: RunRow;
  /** one per step of the workflow, by position */
  steps: RunStepRow[];
  /** `"<name>":{...exports,"$return_value":...}` of each step that ended, by position */
  results: Map<number, string>;
  /** the rows (by position) changed since the last commit */
  dirty: Set<number>;
  /** what its steps see as their context */
  context: RunContextInfo;
  /** console lines of the steps run since the run's last $logs event */
  logs: LogLine[];
}

/** What steps see as `steps.trigger.context` and `$.context` (docs/writing-workflows.md). */
export type RunContextInfo = ReturnType<typeof workflowContext> & { workflow_name: string; emitter_id: string };

/** The invocation context of a run's steps (errors, the trigger): the run's own, every step alike. */
export function stepContext(run: RunRow): InvocationContext & { runId: string } {
  return { kind: "run", startedAt: run.started_at_ms, eventJson: run.trigger_event, trigger: run.trigger_kind, runId: run.id };
}

function contextOf(w: WorkflowRow, run: RunRow, version: string, emitterId: string): RunContextInfo {
  const context: RunContextInfo = { ...workflowContext(w, stepContext(run), version), workflow_name: w.name, emitter_id: emitterId };
  return run.replay_of || run.retry_of ? Object.assign(context, { replay: true }) : context;
}

function pendingStep(runId: string, w: WorkflowRow, idx: number): RunStepRow {
  const step = w.steps[idx]!;
  return {
    run_id: runId,
    idx,
    cell_id: step.id,
    name: step.name,
    status: "pending",
    started_at_ms: null,
    ended_at_ms: null,
    return_value: null,
    exports: null,
    logs: null,
    error: null,
    attempts: 0,
    resume_data: null,
  };
}

export interface NewRun {
  id: string;
  startedAt: number;
  trigger: RunRow["trigger_kind"];
  eventJson: string | undefined;
  replayOf?: string;
  retryOf?: string;
  /** how it started, when its trigger doesn't say (Run now); else from the trigger and lineage */
  startedBy?: RunStartedBy;
  /** the emitter whose event started it (a delivery), else the workflow */
  emitterId?: string;
}

/** A run just triggered: every step pending; nothing is written until its first step commits. */
export function newRunState(w: WorkflowRow, userId: string, n: NewRun, version: string): RunState {
  const startedBy = n.startedBy ?? (n.replayOf ? "replay" : n.retryOf ? "retry" : startedByTrigger(n.trigger));
  const run: RunRow = {
    id: n.id,
    workflow_id: w.id,
    user_id: userId,
    deployment_id: w.deployment_id,
    status: "running",
    cursor: 0,
    trigger_event: n.eventJson ?? "null",
    trigger_kind: n.trigger,
    summary: null,
    // a request without custom_response was answered 200 {"success": true} when accepted; no
    // other start was answered
    response_status: startedBy === "request" && !w.trigger.custom_response ? 200 : null,
    replay_of: n.replayOf ?? null,
    retry_of: n.retryOf ?? null,
    started_by: startedBy,
    started_at_ms: n.startedAt,
    ended_at_ms: null,
    due_at_ms: null,
    partition: partitionOf(w.id),
    wait: null,
  };
  const steps = w.steps.map((_, idx) => pendingStep(n.id, w, idx));
  return { run, steps, results: new Map(), dirty: new Set(steps.map((s) => s.idx)), context: contextOf(w, run, version, n.emitterId ?? w.id), logs: [] };
}

/** How a run its trigger started started: what the engine's invocation consumed says it. */
export function startedByTrigger(trigger: RunRow["trigger_kind"]): RunStartedBy {
  return trigger === "EMIT" ? "event" : trigger === "TIMER" ? "timer" : "request";
}

/**
 * A run read back from the store (to resume it), with `w` as the deployment it started on, which
 * it runs to its end. The steps it ended keep their rows and results. (A run older than the
 * deployments kept, whose own is gone, is given the current one: from its cursor on it runs those
 * steps, their cell ids and names written with the next commit.)
 */
export function loadedRunState(w: WorkflowRow, run: RunRow, rows: RunStepRow[], version: string): RunState {
  const byIdx = new Map(rows.map((r) => [r.idx, r]));
  const phase = phaseOf(run);
  // the step a wait is about stays as it is (a rerun runs it again; a delay's step has ended)
  const kept = phase.kind !== "driving" && phase.kind !== "ended" ? Math.max(run.cursor, phase.wait.idx + 1) : run.cursor;
  const state: RunState = { run, steps: [], results: new Map(), dirty: new Set(), context: contextOf(w, run, version, w.id), logs: [] };
  const last = Math.max(w.steps.length, ...rows.map((r) => r.idx + 1));
  for (let idx = 0; idx < last; idx++) {
    const row = byIdx.get(idx);
    if (idx < kept && row) {
      state.steps.push(row);
    } else if (idx < w.steps.length) {
      if (row && row.cell_id === w.steps[idx]!.id) state.steps.push(row);
      else {
        state.steps.push(pendingStep(run.id, w, idx));
        state.dirty.add(idx);
      }
    } else if (row) {
      // the workflow has fewer steps now: this one will never run
      state.steps.push({ ...row, status: row.status === "pending" ? "skipped" : row.status });
      state.dirty.add(idx);
    }
  }
  for (const row of state.steps) if (row.status === "succeeded" || row.status === "suspended") state.results.set(row.idx, resultMember(row));
  return state;
}

/** The `steps.<name>` member of an ended step: what it exported, its return value, its resume data. */
export function resultMember(row: RunStepRow): string {
  const parts: string[] = [];
  if (row.exports !== null && row.exports.length > 2) parts.push(row.exports.slice(1, -1));
  if (row.return_value !== null) parts.push(`"$return_value":${row.return_value}`);
  if (row.resume_data !== null) parts.push(`"$resume_data":${row.resume_data}`);
  return `${JSON.stringify(row.name)}:{${parts.join(",")}}`;
}

/** The results of the steps before `idx`, as one JSON object's text (the isolate parses it). */
export function resultsBefore(state: RunState, idx: number): string {
  const members: string[] = [];
  for (const [i, member] of state.results) if (i < idx) members.push(member);
  return `{${members.join(",")}}`;
}

/** The rows the next commit writes: the run's and the steps changed since the last one. */
export function takeRows(state: RunState): { run: RunRow; steps: RunStepRow[] } {
  const steps = [...state.dirty].sort((a, b) => a - b).map((i) => ({ ...state.steps[i]! }));
  state.dirty.clear();
  return { run: { ...state.run }, steps };
}

/** Logs of a step's invocation as its row holds them. */
export function stepLogs(r: InvokeResult): string | null {
  return r.logs.length > 0 ? JSON.stringify(r.logs) : null;
}

/**
 * When a workflow's old runs are trimmed: with its first run here, then every TRIM_EVERY runs,
 * so a busy workflow keeps at most `keep + TRIM_EVERY` and the trim costs one statement in many
 * commits, not one in each.
 */
export class RunTrims {
  static readonly TRIM_EVERY = 64;
  readonly #counts = new Map<string, number>();

  due(workflowId: string): boolean {
    const n = this.#counts.get(workflowId) ?? 0;
    if (this.#counts.size >= 100_000 && n === 0) this.#counts.clear();
    this.#counts.set(workflowId, (n + 1) % RunTrims.TRIM_EVERY);
    return n === 0;
  }
}

/**
 * Nobody waits for this run's reply: a replay's, a retry's or Run now's request was answered when
 * it was accepted, so no reply status is recorded for it (a 502 when it ends without one, or what
 * a step passed to $.respond).
 */
export function answersNobody(run: RunRow): boolean {
  if (run.started_by !== undefined && run.started_by !== null) return run.started_by !== "request";
  return run.replay_of !== null || run.retry_of !== null;
}
