import type { RunRow, RunStepRow, WorkflowRow } from "../../store/port.ts";
import { AppError } from "../../lib/errors.ts";
import { newRunState, type RunState } from "./run-record.ts";
import { queuedPhase, storedAs } from "./run-machine.ts";

// A retry of a run from one of its steps (POST /v1/runs/{id}/retry): a new run of a deployment
// (the workflow's current one, or the run's own) whose steps before `from` are the original run's
// committed results, copied, not executed again (their sends are not sent again: those are rows
// of the original run), and which executes from `from` on. It is written queued at `from`, so the
// engine takes it up as any run waiting for room, durably, and runs it as any run.

export interface RetryPlan {
  /** the new run's rows, ready to be written */
  state: RunState;
  /** the step it starts from, by name */
  from: string;
}

/**
 * Plans the retry of `of` (with its `steps`) on deployment `w` from the step named `from`
 * (default: the step that failed). A 409 saying why when it can't be: no such step in `w`, or the
 * steps before it in `w` aren't the steps the original committed before it, by name.
 */
export function planRetry(w: WorkflowRow, userId: string, of: RunRow, steps: RunStepRow[], opts: { id: string; from?: string; now: number; version: string }): RetryPlan {
  const from = opts.from ?? steps.find((s) => s.status === "failed")?.name;
  if (from === undefined) throw new AppError("conflict", "the run has no failed step: name the step to retry from (from_step)");
  const idx = w.steps.findIndex((s) => s.name === from);
  if (idx < 0) throw new AppError("conflict", `the deployment ${w.deployment_id} has no step named "${from}"`);
  const before = w.steps.slice(0, idx).map((s) => s.name);
  const committed = new Map(steps.filter((s) => s.status === "succeeded").map((s) => [s.name, s]));
  const originalFrom = steps.find((s) => s.name === from)?.idx ?? steps.length;
  const originalBefore = steps.filter((s) => s.idx < originalFrom).map((s) => s.name);
  const missing = before.find((name) => !committed.has(name));
  if (missing !== undefined) throw new AppError("conflict", `the run has no committed result for step "${missing}", which comes before "${from}" in the deployment ${w.deployment_id}: retry from it, or from an earlier step`);
  const dropped = originalBefore.find((name) => !before.includes(name));
  if (dropped !== undefined) throw new AppError("conflict", `the deployment ${w.deployment_id} has no step "${dropped}", which came before "${from}" in the run: retry on the run's own deployment (deployment: original), or replay it`);

  const state = newRunState(w, userId, { id: opts.id, startedAt: opts.now, trigger: of.trigger_kind, eventJson: of.trigger_event, retryOf: of.id }, opts.version);
  for (let i = 0; i < idx; i++) {
    const original = committed.get(w.steps[i]!.name)!;
    const row = state.steps[i]!;
    Object.assign(row, {
      status: "succeeded",
      started_at_ms: original.started_at_ms,
      ended_at_ms: original.ended_at_ms,
      return_value: original.return_value,
      exports: original.exports,
      logs: original.logs,
      attempts: original.attempts,
      resume_data: original.resume_data,
    });
  }
  state.run.cursor = idx;
  Object.assign(state.run, storedAs({ ...queuedPhase(opts.now), wait: { kind: "queued", idx, runs: 1 } } as ReturnType<typeof queuedPhase>));
  // its request (if any) was answered by the original run: nobody waits for this one's reply
  state.run.response_status = null;
  return { state, from };
}
