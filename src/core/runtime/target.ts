import type { CommitBatch, ComponentRow, RunRow, RunSendRow, RunStepRow, SourceRow, UserRow, WorkflowRow } from "../../store/port.ts";
import type { HttpResponse, InvokeResult, LogLine } from "../../runtime/protocol.ts";
import type { InvocationContext, TriggerKind } from "./error-events.ts";
import type { Next } from "../workflows/run-machine.ts";
import type { RunContextInfo } from "../workflows/run-record.ts";

// What an invocation runs (an emitter with its owner and code) and what it consumes.

export interface Target {
  source: SourceRow;
  user: UserRow;
  component: ComponentRow;
  endpointUrl: string | null;
  /** set when the emitter is a workflow (the source and component rows are its stand-ins) */
  workflow?: WorkflowRow;
}

export interface InvokeOptions {
  /** the inbox row this invocation consumes, removed in the same transaction */
  inboxSeq?: number;
  /** the timer's next due time, written in the same transaction */
  timerNextDueMs?: number;
  /** the delivery this invocation consumes, removed in the same transaction */
  delivery?: { id: string; hops: number; emitterId?: string };
  /** hooks of a source not created yet: run, but commit nothing */
  dryRun?: boolean;
  /**
   * Several nodes: the lease the durable work was taken under, captured when it starts, so a
   * result can't commit under a later lease of the same partition (another node may have run
   * the same row in between).
   */
  fence?: CommitBatch["fence"];
  /** one step of a workflow run (core/workflows/run-driver.ts) */
  step?: StepInvocation;
}

/** A workflow step's invocation: what its isolate gets, and how its result changes its run. */
export interface StepInvocation {
  /** what the step's isolate gets as `$run` (isolate/workflow.js) */
  run: StepRunInfo;
  /** the run's invocation context (its $errors entries, the trigger) */
  ctx: InvocationContext;
  /** applies the step's result to the run, in commit order: the rows its commit writes */
  settle: (r: InvokeResult, now: number) => StepRecord;
  /** the run's first commit (it consumes the trigger) */
  newRun: boolean;
  /** the run's first step: the run counts as one of the owner's invocations (later steps add time) */
  countsRun: boolean;
  /** someone waits for the run's HTTP reply: `$.respond({immediate: true})` reaches it at once */
  onRespond?: (response: HttpResponse) => void;
}

/**
 * What a workflow step's isolate gets as `$run` (isolate/workflow.js reads it, checking each
 * member, as it checks everything the host gives it). Without `step` the whole workflow runs in
 * one invocation (a test of its code), not one step.
 */
export interface StepRunInfo {
  /** the trigger is HTTP with custom_response: the step's $.respond answers its request */
  customResponse: boolean;
  /** `steps.trigger.context` and `$.context` */
  context: RunContextInfo;
  /** $.send.email can send (the operator set TRIBUTARY_SMTP_URL) */
  email?: true;
  /** the step this invocation runs, by position */
  step?: number;
  /** its execution count: `$.context.run.runs` */
  runs?: number;
  /** the results of the steps before it (`steps`), as one JSON object's text */
  results?: string;
  /** the resume and cancel URLs its $.flow calls return (only for a step whose code names `flow`) */
  urls?: { resume_url: string; cancel_url: string };
  /** what the $.flow.rerun() that made this execution gave it: `$.context.run.context` */
  rerunContext?: unknown;
  /** the request that called the rerun's resume URL: `$.context.run.callback_request` */
  callbackRequest?: unknown;
}

/** What a step's end writes with its commit, and what its run does next (run-machine.ts). */
export interface StepRecord {
  run: RunRow;
  steps: RunStepRow[];
  reportError: boolean;
  logs: LogLine[];
  sends?: RunSendRow[];
  next?: Next;
}

/** An invocation's result once committed; a workflow step's carries what its run does next. */
export interface Committed {
  result: InvokeResult;
  next?: Next | undefined;
}

/** How an invocation was triggered, from what it consumes. */
export function triggerOf(opts: InvokeOptions): TriggerKind {
  if (opts.delivery) return "EMIT";
  if (opts.timerNextDueMs !== undefined) return "TIMER";
  return "HTTP";
}

/** whether the invocation does durable work: it consumes a row, or is a step of a stored run */
export function isDurable(opts: InvokeOptions): boolean {
  return opts.step !== undefined || opts.inboxSeq !== undefined || opts.delivery !== undefined || opts.timerNextDueMs !== undefined;
}

/** The code a runner loads for the target: its bundle when it has one (npm packages, files). */
export function codeOf(t: Target): { codeHash: string; code: string } {
  return t.component.bundle ? { codeHash: t.component.bundle.hash, code: t.component.bundle.code } : { codeHash: t.component.code_hash, code: t.component.code };
}
