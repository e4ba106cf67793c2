import type { PageRequest, RunRow, RunSendRow, RunStartedBy, RunStatus, RunStepRow, RunStepStatus, Store, UserRow, WorkflowRow } from "../../store/port.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import { sendView, type SendView } from "./run-sends.ts";
import type { RunWait } from "./run-wait.ts";
import { phaseOf } from "./run-machine.ts";
import type { CallbackRequest } from "./run-actions.ts";
import type { SecretMask } from "../runtime/secret-mask.ts";
import { bulkReplay, type BulkFilter } from "./bulk-replay.ts";
import { startedByTrigger } from "./run-record.ts";

// Workflow runs (docs/writing-workflows.md), as the API shows them. The engine writes them (CommitBatch.runs);
// here they are read, replayed and cancelled, each only by the user who owns the workflow.
//
// A run's trigger event and its steps' values can be large, and a list of runs should stay small,
// so they are shown truncated unless asked for (`expand=event`, `expand=steps`): a value whose
// JSON is longer than the bound is shown as {"$truncated": true, "bytes", "preview"}.

export const RUN_STATUSES: readonly RunStatus[] = ["running", "suspended", "succeeded", "failed", "exited", "cancelled"];
export const RUN_STARTS: readonly RunStartedBy[] = ["request", "run_now", "replay", "retry", "event", "timer"];
export const RUN_EXPANDS = ["event", "steps"] as const;
export type RunExpand = (typeof RUN_EXPANDS)[number];

/** bytes of JSON shown of a trigger event, and of a step's return value or exports */
export const EVENT_PREVIEW_BYTES = 1024;
export const STEP_VALUE_PREVIEW_BYTES = 4096;

export interface Truncated {
  $truncated: true;
  /** the full value's JSON, in UTF-8 bytes */
  bytes: number;
  /** its JSON's first characters */
  preview: string;
}

export interface RunStepView {
  name: string;
  id: string;
  status: RunStepStatus;
  started_at_ms: number | null;
  ended_at_ms: number | null;
  return_value: unknown;
  exports: unknown;
  logs: unknown[];
  error?: unknown;
  attempts: number;
  sends: SendView[];
}

/** sends a run shows (a run of many reruns may have queued more) */
const MAX_SENDS_SHOWN = 1000;

/** A run's steps with what they queued to send. */
/** which deployment a replay runs: the workflow's current one, or the replayed run's own */
export type ReplayDeployment = "current" | "original";

export interface RunSteps {
  rows: RunStepRow[];
  sends: Array<Omit<RunSendRow, "request">>;
  /** the workflow's current deployment (a run runs the one it started on) */
  currentDeployment: string | undefined;
  /** masks the secrets the run used in what it shows (run-masks.ts); undefined: it used none */
  mask?: SecretMask | undefined;
}

export interface RunView {
  id: string;
  workflow_id: string;
  status: RunStatus;
  trigger_event: unknown;
  deployment_id: string;
  /** whether `deployment_id` is the workflow's current deployment (null: not known in a list's row) */
  deployment_current: boolean | null;
  started_at_ms: number;
  ended_at_ms: number | null;
  summary: string | null;
  /** how it started; only a run a request started was answered (`response`) */
  started_by: RunStartedBy;
  response: { status: number } | null;
  replay_of: string | null;
  retry_of: string | null;
  /** what a live run waits for, and until when (null: until resumed); null when it isn't waiting */
  waiting: { for: RunWait["kind"]; step_index: number; until_ms: number | null } | null;
  steps?: RunStepView[];
}

export interface RunControls {
  /** starts a new run of the workflow with `event` (Run now); its id */
  runNow: (user: UserRow, w: WorkflowRow, event: unknown) => Promise<string>;
  /** starts a new run of the workflow's current deployment with the run's event; its id */
  replay: (user: UserRow, w: WorkflowRow, run: RunRow, deployment: ReplayDeployment) => Promise<string>;
  /** starts a new run retrying the run from one of its steps (default: the one that failed); its id */
  retry: (user: UserRow, w: WorkflowRow, run: RunRow, opts: { from?: string; deployment: ReplayDeployment }) => Promise<string>;
  /** cancels a running or suspended run */
  cancel: (run: RunRow) => Promise<void>;
  /** a suspended run goes on now, as its resume URL would */
  resume: (run: RunRow, request: CallbackRequest) => Promise<void>;
}

/**
 * How the run started. A row from before migration 025 (or from a node of an earlier version) has
 * none: its lineage and trigger say it, Run now reading as a request (it went through the same
 * inbox then).
 */
export function startedByOf(run: RunRow): RunStartedBy {
  return run.started_by ?? (run.replay_of !== null ? "replay" : run.retry_of !== null ? "retry" : startedByTrigger(run.trigger_kind));
}

function waitingOf(run: RunRow): RunView["waiting"] {
  const phase = phaseOf(run);
  if (phase.kind === "driving" || phase.kind === "ended") return null;
  return { for: phase.wait.kind, step_index: phase.wait.idx, until_ms: run.due_at_ms };
}

/** `expand=event,steps` as a set; anything else in it is a 400 naming `expand` */
export function parseExpand(raw: string | undefined): Set<RunExpand> {
  const out = new Set<RunExpand>();
  for (const part of (raw ?? "").split(",")) {
    const p = part.trim();
    if (p === "") continue;
    if (!(RUN_EXPANDS as readonly string[]).includes(p)) {
      throw invalid(`expand takes ${RUN_EXPANDS.join(", ")}`, [{ field: "expand", message: `must list ${RUN_EXPANDS.join(" and/or ")}, comma-separated` }]);
    }
    out.add(p as RunExpand);
  }
  return out;
}

/** the value of JSON text (null: none), or its truncated form when its JSON is over `max` bytes */
function shown(json: string | null, max: number | undefined): unknown {
  if (json === null) return null;
  if (max === undefined) return JSON.parse(json);
  const bytes = Buffer.byteLength(json);
  if (bytes <= max) return JSON.parse(json);
  let preview = json.slice(0, max);
  // never end on half a surrogate pair: the preview must be well-formed text
  const last = preview.charCodeAt(preview.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) preview = preview.slice(0, -1);
  const t: Truncated = { $truncated: true, bytes, preview };
  return t;
}

export class Runs {
  readonly #store: Store;
  readonly #workflow: (user: UserRow, id: string) => Promise<WorkflowRow>;
  readonly #actions: RunControls;

  /** `workflow` is Workflows.get: the user's workflow, else a 404 */
  constructor(store: Store, workflow: (user: UserRow, id: string) => Promise<WorkflowRow>, actions: RunControls) {
    this.#store = store;
    this.#workflow = workflow;
    this.#actions = actions;
  }

  /** The user's run; another user's reads exactly like a missing one. */
  async get(user: UserRow, runId: string): Promise<RunRow> {
    const run = runId.startsWith("r_") ? await this.#store.runs.byId(runId) : undefined;
    if (!run || run.user_id !== user.id) throw notFound("run");
    return run;
  }

  /** the mask of the secrets a run used (core.ts sets it: run-masks.ts), built once per request */
  masks: ((run: RunRow) => Promise<SecretMask | undefined>) | undefined;

  async steps(run: RunRow): Promise<RunSteps> {
    const [rows, sends, w, mask] = await Promise.all([
      this.#store.runs.steps(run.id),
      this.#store.runSends.forRun(run.id, MAX_SENDS_SHOWN),
      this.#store.workflows.byId(run.workflow_id),
      this.masks?.(run),
    ]);
    return { rows, sends, currentDeployment: w?.deployment_id, mask };
  }

  /** a page of the workflow's runs, with the workflow's current deployment */
  async list(user: UserRow, workflowId: string, page: PageRequest, status?: RunStatus) {
    const w = await this.#workflow(user, workflowId);
    const result = await this.#store.runs.list(workflowId, page, status);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return { ...result, currentDeployment: w.deployment_id };
  }

  /**
   * The API's Run; `steps` absent (lists) leaves the field out. `currentDeployment`: the
   * workflow's (a list has it without the steps).
   */
  view(run: RunRow, steps: RunSteps | undefined, expand: ReadonlySet<RunExpand>, currentDeployment = steps?.currentDeployment): RunView {
    const valueMax = expand.has("steps") ? undefined : STEP_VALUE_PREVIEW_BYTES;
    const startedBy = startedByOf(run);
    const out: RunView = {
      id: run.id,
      workflow_id: run.workflow_id,
      status: run.status,
      trigger_event: shown(run.trigger_event, expand.has("event") ? undefined : EVENT_PREVIEW_BYTES),
      deployment_id: run.deployment_id,
      deployment_current: currentDeployment === undefined ? null : currentDeployment === run.deployment_id,
      started_at_ms: run.started_at_ms,
      ended_at_ms: run.ended_at_ms,
      summary: run.summary === null || !steps?.mask ? run.summary : steps.mask.text(run.summary),
      started_by: startedBy,
      // a run no request started answered nobody, whatever a step passed to $.respond
      response: run.response_status === null || startedBy !== "request" ? null : { status: run.response_status },
      replay_of: run.replay_of,
      retry_of: run.retry_of,
      waiting: waitingOf(run),
    };
    if (steps) {
      // a step's row is written when it ends: the one a running run is on (and not waiting
      // to retry) is running now
      const current = phaseOf(run).kind === "driving" ? run.cursor : -1;
      // return values and exports are stored as the steps after read them: masked only here
      // (logs and errors were masked when written; again here for runs from before that)
      const mask = steps.mask;
      const masked = <T extends string | null>(json: T): T => (mask && json !== null ? (mask.json(json) as T) : json);
      out.steps = steps.rows.map((s) => ({
        name: s.name,
        id: s.cell_id,
        status: s.idx === current && s.status === "pending" ? "running" : s.status,
        started_at_ms: s.started_at_ms,
        ended_at_ms: s.ended_at_ms,
        return_value: shown(masked(s.return_value), valueMax),
        exports: s.exports === null ? {} : shown(masked(s.exports), valueMax),
        logs: s.logs === null ? [] : (JSON.parse(masked(s.logs)) as unknown[]),
        ...(s.error === null ? {} : { error: JSON.parse(masked(s.error)) as unknown }),
        attempts: s.attempts,
        sends: steps.sends.filter((x) => x.step_idx === s.idx).map(sendView),
      }));
    }
    return out;
  }

  /** Run now: a new run of the user's workflow with `event`, queued; its id (run-actions.ts) */
  async runNow(user: UserRow, workflowId: string, event: unknown): Promise<string> {
    return this.#actions.runNow(user, await this.#workflow(user, workflowId), event);
  }

  /**
   * A new run with the run's trigger event, of the workflow's current deployment (the
   * fix-and-replay case) or of the run's own (`original`); its id.
   */
  async replay(user: UserRow, runId: string, deployment: ReplayDeployment = "current"): Promise<string> {
    const run = await this.get(user, runId);
    return this.#actions.replay(user, await this.#workflow(user, run.workflow_id), run, deployment);
  }

  /** replays the workflow's runs that match `filter`, newest first (bulk-replay.ts) */
  async bulkReplay(user: UserRow, workflowId: string, filter: BulkFilter) {
    return bulkReplay(this.#store, this.#actions, user, await this.#workflow(user, workflowId), filter);
  }

  /** a new run retrying the run from one of its steps, on the current deployment or its own; its id */
  async retry(user: UserRow, runId: string, opts: { from?: string; deployment: ReplayDeployment }): Promise<string> {
    const run = await this.get(user, runId);
    return this.#actions.retry(user, await this.#workflow(user, run.workflow_id), run, opts);
  }

  /** resumes a suspended run (409 when it isn't); returns it as it is after */
  async resume(user: UserRow, runId: string, data: unknown): Promise<RunRow> {
    const run = await this.get(user, runId);
    await this.#actions.resume(run, { method: "POST", headers: {}, body: data ?? null });
    return (await this.#store.runs.byId(run.id)) ?? run;
  }

  /** cancels a running or suspended run; returns it as it is after */
  async cancel(user: UserRow, runId: string): Promise<RunRow> {
    const run = await this.get(user, runId);
    if (run.status !== "running" && run.status !== "suspended") throw new AppError("conflict", `the run has ended: ${run.status}`);
    await this.#actions.cancel(run);
    return (await this.#store.runs.byId(run.id)) ?? run;
  }
}
