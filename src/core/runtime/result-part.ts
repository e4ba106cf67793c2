import type { InvokeResult } from "../../runtime/protocol.ts";
import type { EventRow } from "../../store/port.ts";
import type { CommitPart } from "./commit-queue.ts";
import type { InvokeOptions, StepRecord, Target } from "./target.ts";
import type { CachedState, EventRows } from "./event-rows.ts";
import { applyDedupe, byTs } from "./dedupe.ts";
import { errorPayload, invocationJson, type InvocationContext } from "./error-events.ts";

// What one invocation's result commits, in one transaction: its events (emits after dedupe, its
// errors, its logs), the emitter's state, its data store writes, the workflow run's rows when it
// is a step, and the work it consumed (an inbox row, a timer tick, a delivery). Built
// synchronously in the emitter's order (invocations.ts), so event ids follow that order.

export interface ResultPartInput {
  t: Target;
  state: CachedState;
  ctx: InvocationContext;
  result: InvokeResult;
  opts: InvokeOptions;
  /** the step's run rows, when the invocation is a workflow step */
  record: StepRecord | undefined;
  /** the usage row the result adds */
  usage: NonNullable<CommitPart["usage"]>[number];
  rows: EventRows;
  version: string;
  /** the workflow's old runs are trimmed in this commit, down to this many */
  trimRunsTo: number | undefined;
  now: number;
}

export interface ResultPart {
  /** the events it writes, in order */
  events: EventRow[];
  /** what a listener of each event receives (a workflow's emit is stored as {raw_event: x}, delivered as x) */
  delivered: string[];
  part: CommitPart;
}

export function resultPart(input: ResultPartInput): ResultPart {
  const { t, state, ctx, result: r, opts, record, now } = input;
  const events: EventRow[] = [];
  const delivered: string[] = [];
  const add = (name: string, payload: string, meta: EventRow["meta"] | object, raw = payload) => {
    events.push(input.rows.event(t, state, name, payload, meta, now));
    delivered.push(raw);
  };
  // a run's steps log onto one $logs event, committed with the step after which the run ends
  // or waits (the steps' rows hold each one's own lines)
  const logs = record ? record.logs : r.logs.slice();
  if (!r.error) {
    const { kept, warnings } = applyDedupe(t.component.meta.dedupe, byTs(r.emits), state.row.dedupe);
    for (const w of warnings) logs.push({ level: "warn", msg: w, ts: now });
    for (const e of kept) {
      if (t.workflow) add(e.meta.name ?? "", `{"raw_event":${e.json}}`, { ts: e.meta.ts }, e.json);
      else add(e.meta.name ?? "", e.json, e.meta);
    }
    if (r.db) state.row.db = r.db;
  }
  // a step that will be retried puts its error on the run, not yet on $errors
  const reported = r.error && (!record || record.reportError);
  for (const error of reported ? [r.error!, ...r.emitErrors] : r.emitErrors) add("$errors", errorPayload(t, ctx, error, input.version), {});
  if (logs.length > 0) add("$logs", t.workflow ? JSON.stringify({ lines: logs }) : `{"lines":${JSON.stringify(logs)},"invocation":${invocationJson(ctx)}}`, {});
  // the emitter's state (db, dedupe memory, last event id) changes only with events or db
  // writes: a workflow step that emits nothing writes no state row (a statement a step saved)
  const part: CommitPart = { usage: [input.usage] };
  if (events.length > 0 || (!r.error && r.db)) part.states = [input.rows.snapshot(state)];
  // (kept to the props' stores when the result came: invocations.ts)
  if (!r.error && r.dataStores) part.dataStores = r.dataStores;
  if (record) {
    part.runs = [record.run];
    part.runSteps = record.steps;
    if (record.sends) part.sends = record.sends;
    if (input.trimRunsTo !== undefined) part.runTrims = [{ workflow_id: record.run.workflow_id, keep: input.trimRunsTo }];
  }
  if (opts.inboxSeq !== undefined) part.inboxDone = [opts.inboxSeq];
  if (opts.timerNextDueMs !== undefined) part.timers = [{ source_id: t.source.id, next_due_ms: opts.timerNextDueMs }];
  if (opts.delivery) part.deliveriesDone = [opts.delivery.id];
  if (opts.fence) part.fence = opts.fence;
  return { events, delivered, part };
}
