import type { InvokeResult, StepReport } from "../../runtime/protocol.ts";
import type { RunRow, RunStepRow, WorkflowRow } from "../../store/port.ts";
import { newId } from "../../lib/ids.ts";
import { workflowContext, type InvocationContext } from "../runtime/error-events.ts";

// The run record of one execution of a workflow (workflows §3): the run and each of its steps as
// far as it got, built from the invocation's result and committed with its events, in the same
// transaction. Steps the run never reached are `skipped`.

/**
 * What a run's steps see as `steps.trigger.context` and `$.context` (workflows §2), handed to the
 * isolate with the run's props under `$run`, which no cell id can be.
 */
export function runContext(w: WorkflowRow, ctx: InvocationContext & { runId: string }, version: string, emitterId: string) {
  return {
    customResponse: w.trigger.type === "http" && w.trigger.custom_response === true,
    context: { ...workflowContext(w, ctx, version), workflow_name: w.name, emitter_id: emitterId },
  };
}

export function runRecord(w: WorkflowRow, userId: string, ctx: InvocationContext, r: InvokeResult, now: number): { run: RunRow; steps: RunStepRow[] } {
  const reports = new Map<string, StepReport>((r.steps ?? []).map((s) => [s.cellId, s]));
  const id = ctx.runId ?? newId("r_");
  const exited = (r.steps ?? []).some((s) => s.status === "exited");
  const steps = w.steps.map((step, idx): RunStepRow => {
    const report = reports.get(step.id);
    const failedHere = r.error?.cellId === step.id;
    const row: RunStepRow = {
      run_id: id,
      idx,
      cell_id: step.id,
      name: step.name,
      status: failedHere ? "failed" : report ? (report.status === "exited" ? "succeeded" : report.status) : "skipped",
      started_at_ms: report?.startedAt ?? null,
      ended_at_ms: report?.endedAt ?? (failedHere ? now : null),
      return_value: report?.returnValue ?? null,
      exports: report?.exports ?? null,
      logs: report && report.logsTo > report.logsFrom ? JSON.stringify(r.logs.slice(report.logsFrom, report.logsTo)) : null,
      error: failedHere ? JSON.stringify({ name: r.error!.name, message: r.error!.message, stack: r.error!.stack }) : null,
      attempts: report || failedHere ? 1 : 0,
    };
    return row;
  });
  const summary = [...(r.steps ?? [])].reverse().find((s) => s.summary !== undefined)?.summary ?? null;
  const run: RunRow = {
    id,
    workflow_id: w.id,
    user_id: userId,
    deployment_id: w.deployment_id,
    status: r.error ? "failed" : exited ? "exited" : "succeeded",
    cursor: steps.filter((s) => s.status === "succeeded" || s.status === "failed").length,
    trigger_event: ctx.eventJson ?? "null",
    trigger_kind: ctx.trigger,
    summary,
    // an HTTP trigger was answered 200 {"success": true} when its request was accepted, or with
    // what the run gave $.respond() (custom_response: a 502 without it)
    response_status: ctx.trigger === "HTTP" ? (r.response?.status ?? (w.trigger.custom_response ? 502 : 200)) : null,
    replay_of: null,
    started_at_ms: ctx.startedAt,
    ended_at_ms: now,
    due_at_ms: null,
  };
  return { run, steps };
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
