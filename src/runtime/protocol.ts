// What the host asks a runner process to do (sandbox/runner-main.ts), and what comes back: the
// requests and their results. How they travel (tagged messages over the fork IPC channel, plain
// JSON) is ipc.ts.
import type { DataStoreWrites } from "../lib/data-store-limits.ts";

export interface AnalyzeRequest {
  type: "analyze";
  code: string;
  /** budget for the component's own code (top level + describe), enforced inside the isolate */
  timeoutMs: number;
  memoryMb: number;
}

/**
 * "options" and "reload": a props form's questions (docs/writing-components.md, Dynamic props);
 * "eventNames": an apphook prop's computed eventNames() (App hooks). Each answered as the response.
 */
export type InvocationKind = "run" | "deploy" | "activate" | "deactivate" | "options" | "reload" | "eventNames";

export interface InvokeLimits {
  /** wall clock for the whole invocation, async waits included (docs/writing-components.md, Limits) */
  timeoutMs: number;
  /** isolate heap limit */
  memoryMb: number;
  /** $emit calls per invocation (1,000); the one over the limit throws inside the invocation */
  maxEmits: number;
  /** one emitted event's JSON (1 MiB); a larger emit is refused, the invocation goes on */
  maxEventBytes: number;
  /** console lines kept per invocation (100); later ones are dropped and counted */
  maxLogLines: number;
  /** bytes per console line (4 KiB); longer lines are cut */
  maxLogLineBytes: number;
  /** JSON size of the whole db state (64 KiB); a set() over it throws inside the invocation */
  maxDbBytes: number;
  /**
   * Bytes one invocation may hand the host in all (emits, logs, db, response): 1,000 emits of
   * 1 MiB are each within their own limits, but together they would not fit in one IPC message.
   * The emit, log or respond call that passes it throws inside the invocation.
   */
  maxResultBytes: number;
}

/**
 * Run one hook or `run` of a source's component. Invocations of one source are executed one at a
 * time, in the order they arrive; different sources run concurrently. The runner keeps a warm
 * isolate per source (LRU, keyed by sourceId and codeHash).
 */
export interface InvokeRequest {
  type: "invoke";
  sourceId: string;
  /**
   * What the request keeps order with: the invocations of one key run one after another, in the
   * order sent (none given: the source's). A workflow step's is its run's id, so the runs of a
   * workflow run side by side, each in a warm context of the workflow's (sandbox/invoke.ts).
   */
  orderKey?: string;
  codeHash: string;
  /**
   * The component code. The host omits it when it believes this runner has the module for
   * codeHash; a runner that doesn't asks for it (ipc.ts RunnerCodeAsk), and replies
   * `{needCode: true}` only when that fails (the host then resends with it).
   */
  code?: string;
  kind: InvocationKind;
  /**
   * The run's argument (timer event, HTTP event, delivered payload) as JSON text; absent for
   * hooks. Text, not a value: the host already holds it as text (inbox rows, deliveries), and a
   * string crosses IPC whatever its nesting, where a deep value would throw in the serializer.
   */
  eventJson?: string;
  /**
   * Configured prop values by name, ready for `this`: secrets already opened. For
   * `$.interface.http` props the value is `{endpoint: string}`, for timers the timer config; `$.service.db`
   * and app props without a value are absent. The runner builds the prop objects itself
   * from the component's own prop definitions (db, http.respond, app methods bound with $auth).
   */
  props: Record<string, unknown>;
  /**
   * The version of the owner's environment variables (EnvText): what `process.env` holds for this
   * invocation (and, for the invocation that starts the context, for the component's top level).
   * Only the version: a runner without that version's text asks for it (ipc.ts RunnerEnvAsk).
   * Absent when the owner has none; nothing of the host's own environment is ever sent.
   */
  envVersion?: string;
  /**
   * The source's db state as the host last knew it. Together with dbEpoch: a runner whose warm
   * instance already holds state for this source with the same dbEpoch keeps its own (it is
   * newer: results the host hasn't seen yet); otherwise it starts from this one.
   */
  db: Record<string, unknown>;
  dbEpoch: number;
  limits: InvokeLimits;
  /** host:port pairs sandbox fetch may reach even though they are private (TRIBUTARY_FETCH_ALLOW) */
  fetchAllow: string[];
  /**
   * The data stores the props name (`data_store` props, `{dataStoreId}` values): the only ones
   * the invocation may read (asking the host, ipc.ts RunnerAsk) or write (its result's writes).
   */
  dataStores?: string[];
  /** someone waits for this run's HTTP reply: `$.respond({immediate: true})` is told at once (RunnerTell) */
  respondNow?: boolean;
  /**
   * Sources of one owner running the same code may share an isolate, each in a context of its
   * own (a context costs a quarter of an isolate): the owner's id. Absent: an isolate of its own.
   */
  owner?: string;
  /**
   * When the source will be invoked next, if known (a timer tick: its next due time, ms since the
   * epoch): a runner that must let warm sources go keeps those needed soonest.
   */
  nextUseAt?: number;
  /**
   * Only start the source's context (isolate, runtime, component) and keep it warm; nothing runs
   * and the result is empty. Sent when a timer source is deployed, so its first tick starts warm.
   */
  warmOnly?: boolean;
}

/**
 * A user's environment variables as a JSON object's text, and its version: a hash of the text and
 * the owner, so runs of other users never share one, and an unchanged set keeps its version.
 */
export interface EnvText {
  version: string;
  json: string;
}

export interface EmitMeta {
  id?: string | number;
  name?: string;
  summary?: string;
  ts?: number;
}

export interface EmittedEvent {
  /** the event as JSON text, measured and stringified inside the sandbox */
  json: string;
  meta: EmitMeta;
}

export interface LogLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  msg: string;
  /** epoch ms */
  ts: number;
}

export interface InvocationError {
  name: string;
  message: string;
  stack: string;
  /**
   * Workflows only: the `cellId` of the step that failed (it threw, or the invocation timed out,
   * ran out of memory or broke a limit while it ran, or it failed to load).
   */
  cellId?: string;
  /** Set with cellId: the thrown value's `code` when a non-empty string, else the error's name. */
  code?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** a string body is sent as is; anything else as JSON */
  body?: unknown;
}

export interface InvokeResult {
  /** in call order; the host orders by ts and applies dedupe */
  emits: EmittedEvent[];
  /** the full db state after the invocation when it changed, else null. Null on error. */
  db: Record<string, unknown> | null;
  logs: LogLine[];
  /** what this.http.respond() was given (first call wins), if it was called */
  response?: HttpResponse;
  /** set when the invocation failed (threw, timed out, ran out of memory, broke a limit) */
  error?: InvocationError;
  /**
   * Emits refused individually (too large, not JSON-serializable). They don't fail the
   * invocation; the host puts each on $errors.
   */
  emitErrors: InvocationError[];
  /** wall-clock ms the invocation took inside the runner */
  wallMs: number;
  /** a workflow's steps that ran, in order (a run record's steps) */
  steps?: StepReport[];
  /** writes to data stores, per store in call order; absent when none or on error */
  dataStores?: DataStoreWrites[];
}

/** How one workflow step went (isolate/workflow.js tells the runner as each step ends). */
export interface StepReport {
  cellId: string;
  /** "failed": the invocation's error is the step's; "exited": it called $.flow.exit() */
  status: "succeeded" | "failed" | "exited";
  startedAt: number;
  endedAt: number;
  /** JSON text of its return value; absent when it returned nothing (or nothing JSON can hold) */
  returnValue?: string;
  /** JSON text of the object of what it `$.export`ed, when it exported anything */
  exports?: string;
  /** what it set as `$.summary` */
  summary?: string;
  /** its console lines are the invocation's logs[logsFrom, logsTo) */
  logsFrom: number;
  logsTo: number;
  /** it called $.flow.delay, suspend or rerun (the last call): the run waits after it */
  flow?: StepFlow;
  /** what it queued with $.send.http / $.send.email, in call order */
  sends?: QueuedSend[];
}

/** A send a step queued (runtime/sandbox/queued-send.ts): its request, checked, as JSON text. */
export interface QueuedSend {
  kind: "http" | "email";
  /** http `{method, url, headers, body?}`; email `{subject, text?, html?}` */
  request: string;
}

/** What a step asked the run to wait for (docs/writing-workflows.md, Waiting). */
export interface StepFlow {
  kind: "delay" | "suspend" | "rerun";
  /** the delay, the suspension's timeout, the rerun's delay */
  ms: number;
  /** rerun: the most reruns allowed */
  max?: number;
  /** rerun: the context passed, JSON text */
  context?: string;
}

/** The ok result of an InvokeRequest. */
export type InvokeReply = InvokeResult | { needCode: true };

/** A request's own tag is `type`; on the channel it travels inside a tagged message (ipc.ts). */
export type RunnerRequest = AnalyzeRequest | InvokeRequest;
