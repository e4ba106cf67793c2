import type { InvocationError, InvocationKind } from "../../runtime/protocol.ts";
import { newId } from "../../lib/ids.ts";
import type { Target } from "./target.ts";
import type { WorkflowRow } from "../../store/port.ts";

// What goes on an emitter's $errors stream. A source's error is {error, invocation} (docs/writing-components.md,
// "When a run fails"); a workflow's is the shape GET /v1/workflows/{id}/$errors/event_summaries
// shows (docs/api.md, "Events"): the trigger event, the invocation's context, and the error with the
// step's cell id.

/** How the invocation was triggered, as a workflow's original_context.source_type says it. */
export type TriggerKind = "HTTP" | "TIMER" | "EMIT";

export interface InvocationContext {
  kind: InvocationKind;
  startedAt: number;
  /** the run's event as JSON text (for workflows: original_event) */
  eventJson: string | undefined;
  trigger: TriggerKind;
  /** a workflow's run (`r_...`): its record, its context's id */
  runId?: string;
  /** a source's invocation (`inv_...`), named on its $errors and $logs events: set when first needed */
  id?: string;
}

/**
 * The `invocation` member of a source's $errors and $logs events: one id for both, so a reader
 * (the dashboard's Invocations tab) can put an invocation's error and its log lines together.
 */
export function invocationJson(ctx: InvocationContext): string {
  ctx.id ??= newId("inv_");
  return JSON.stringify({ id: ctx.id, kind: ctx.kind, started_at: ctx.startedAt });
}

/**
 * Failures of the platform rather than of the component's code: the run's input was consumed
 * (an accepted request, a delivery) without running, so the $errors entry carries the event, and
 * nothing acknowledged disappears.
 */
const PLATFORM_FAILURES = new Set(["RunnerCrashed", "InternalError", "ResultError"]);

// The event is spliced in as the text it already is: never parsed again, never re-serialised.
export function errorPayload(t: Target, ctx: InvocationContext, error: InvocationError, version: string): string {
  const w = t.workflow;
  if (!w) {
    const invocation = invocationJson(ctx);
    const withEvent =
      ctx.eventJson !== undefined && PLATFORM_FAILURES.has(error.name) ? `${invocation.slice(0, -1)},"event":${ctx.eventJson}}` : invocation;
    return `{"error":${JSON.stringify(plain(error))},"invocation":${withEvent}}`;
  }
  return `{"original_event":${ctx.eventJson ?? "null"},${JSON.stringify({
    original_context: workflowContext(w, ctx, version),
    error: {
      code: error.code ?? error.name,
      msg: error.message,
      cellId: error.cellId ?? null,
      // the step's name, which is what a reader knows it by (a cell id alone names no step for a reader)
      step: error.cellId === undefined ? null : (w.steps.find((s) => s.id === error.cellId)?.name ?? null),
      ts: new Date().toISOString(),
      stack: error.stack,
    },
  }).slice(1)}`;
}

/** A workflow run's context, an error's original_context (docs/api.md, "Events"). */
export function workflowContext(w: WorkflowRow, ctx: InvocationContext, version: string) {
  return {
    id: ctx.runId ?? newId(""),
    ts: new Date(ctx.startedAt).toISOString(),
    workflow_id: w.id,
    deployment_id: w.deployment_id,
    source_type: ctx.trigger,
    verified: false,
    owner_id: w.user_id,
    platform_version: version,
  };
}

// a source's error keeps the three fields docs/writing-components.md, "When a run fails", shows
function plain(e: InvocationError) {
  return { name: e.name, message: e.message, stack: e.stack };
}
