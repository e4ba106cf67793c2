import type { Page, PageRequest } from "./paging.ts";

/** A workflow run's state (docs/writing-workflows.md, "Runs"). */
export type RunStatus = "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
export type RunStepStatus = "pending" | "running" | "suspended" | "succeeded" | "failed" | "skipped";
/**
 * How a run started: a request to the workflow's endpoint (the only start that was answered),
 * Run now (the API, the CLI, the dashboard), a replay or retry of another run, an event delivered
 * to the workflow, or its timer.
 */
export type RunStartedBy = "request" | "run_now" | "replay" | "retry" | "event" | "timer";

/** One execution of a workflow (`r_...`): a row per run, newest kept per workflow (retention). */
export interface RunRow {
  id: string;
  workflow_id: string;
  user_id: string;
  /** the deployment (`d_...`) whose steps it runs */
  deployment_id: string;
  status: RunStatus;
  /** the index of the next step to run (= the number of steps ended) */
  cursor: number;
  /** the trigger event, JSON text */
  trigger_event: string;
  trigger_kind: "HTTP" | "TIMER" | "EMIT";
  /** what the steps set as `$.summary`, the last one wins */
  summary: string | null;
  /** the status of the HTTP reply an HTTP trigger got, when it is known */
  response_status: number | null;
  /** the run this one replays */
  replay_of: string | null;
  /** the run this one retries from one of its steps (its earlier steps' results are the original's) */
  retry_of: string | null;
  /**
   * how it started (migration 025); null for a run recorded before, or by a node of an earlier
   * version (runs.ts reads it from the trigger and lineage then). Optional: a row built without
   * it is written as null.
   */
  started_by?: RunStartedBy | null;
  started_at_ms: number;
  ended_at_ms: number | null;
  /**
   * When the engine takes the run up next: a waiting run's resume time (its delay, its suspension's
   * timeout, a retry's backoff); null while a node runs it, or for a suspension with no timeout.
   */
  due_at_ms: number | null;
  /** the workflow's partition: a node scans the runs of the partitions it holds */
  partition: number;
  /** what a waiting run waits for (core/workflows/run-wait.ts), JSON; null while it runs */
  wait: string | null;
}

/** A step of a run, as far as the run got. Values are JSON text (null: none). */
export interface RunStepRow {
  run_id: string;
  /** the step's position in the deployment */
  idx: number;
  /** the step's cell id (`c_...`) */
  cell_id: string;
  name: string;
  status: RunStepStatus;
  started_at_ms: number | null;
  ended_at_ms: number | null;
  return_value: string | null;
  /** a JSON object: what the step `$.export`ed */
  exports: string | null;
  /** a JSON array of {level, msg, ts} */
  logs: string | null;
  /** a JSON object {name, message, stack} */
  error: string | null;
  attempts: number;
  /** the request that resumed the step's suspension ({method, headers, body}), JSON */
  resume_data: string | null;
}

/** Workflow runs (docs/writing-workflows.md, "Runs"); written only by commits (CommitBatch.runs), read by the API. */
export interface RunStore {
  byId(id: string): Promise<RunRow | undefined>;
  /** the run's steps, in order */
  steps(runId: string): Promise<RunStepRow[]>;
  /** a workflow's runs, newest first; undefined for a cursor that is not a position in the list */
  list(workflowId: string, page: PageRequest, status?: RunStatus): Promise<Page<RunRow> | undefined>;
  /**
   * A workflow's runs with `status` started within [since, until] (ms, either open), newest
   * first, at most `limit`; and how many match in all.
   */
  matching(workflowId: string, filter: { status: RunStatus; since?: number; until?: number }, limit: number): Promise<{ runs: RunRow[]; matched: number }>;
  /** writes a run that starts later (a replay, queued): the engine takes it up when it is due */
  create(run: RunRow, steps: RunStepRow[]): Promise<void>;
  /**
   * Takes a waiting run up: it becomes running with no due time (its wait kept, for a node that
   * takes it up after a crash), when it is still exactly as read (`status`, `wait`) and not due
   * later than `now`. False when something changed it meanwhile (a resume URL, a cancel).
   */
  claim(id: string, status: RunStatus, wait: string | null, now: number): Promise<boolean>;
  /** claim() of many runs in one statement: the ids of those claimed */
  claimMany(runs: ReadonlyArray<{ id: string; status: RunStatus; wait: string | null }>, now: number): Promise<Set<string>>;
  /** steps() of many runs in one read */
  stepsOf(runIds: readonly string[]): Promise<Map<string, RunStepRow[]>>;
  /**
   * Queued runs (settings.concurrency / rate) that may start now, oldest first: of a workflow, or
   * of the partitions given.
   */
  queued(of: { workflowId: string } | { partitions: readonly number[] }, now: number, limit: number): Promise<RunRow[]>;
  /**
   * A waiting run that may not go on yet (a queued run, or one back from a wait while its
   * workflow's concurrency is full) tries again at `dueAtMs`: only while its row is still as read
   * (`from`: its status, wait and due time), so a run claimed, resumed or cancelled meanwhile
   * keeps what that made it. Whether it was postponed.
   */
  postpone(id: string, from: { status: string; wait: string; due_at_ms: number | null }, dueAtMs: number): Promise<boolean>;
  /** live runs of the partitions whose due time has come, soonest first */
  due(partitions: readonly number[], now: number, limit: number): Promise<RunRow[]>;
  /**
   * Running runs nobody has taken (due_at_ms null): a node running them stopped. Those a node
   * drives now read the same, so a reader pages on (`afterId`: the last id of the page before;
   * pages are in id order).
   */
  orphans(partitions: readonly number[], limit: number, afterId?: string): Promise<RunRow[]>;
  /** the soonest due time after `after` of the partitions' live runs (undefined: none) */
  nextDue(partitions: readonly number[], after: number): Promise<number | undefined>;
  /**
   * Ends a run as `cancelled` while it is still exactly as read (`from`: its status, wait and due
   * time), its steps' statuses changed as `stepsAtEnd` says (the run machine's one rule for a
   * run's end); false when it changed meanwhile (resumed, taken up, ended).
   */
  cancel(id: string, from: Pick<RunRow, "status" | "wait" | "due_at_ms">, now: number, stepsAtEnd: Readonly<Partial<Record<RunStepStatus, RunStepStatus>>>): Promise<boolean>;
  /**
   * A waiting run's resume URL was called: when it still waits for exactly `wait` (the JSON it
   * holds), records what resumed it (the step's resume_data, or the new wait) and makes it due
   * now. False when it no longer waits for that.
   */
  resume(id: string, wait: string, change: { resumeData?: { idx: number; json: string }; wait: string }, now: number): Promise<boolean>;
}
