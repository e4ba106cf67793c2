import type { RunRow, Store, UserRow, WorkflowRow } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { SourceRuntime } from "../runtime/source-runtime.ts";
import { timerEvent, timerOf } from "../flow/timers.ts";
import { newRunState, type RunState } from "./run-record.ts";
import { planRetry } from "./run-retry.ts";
import { checkWaitKey, type WaitAction } from "./run-wait.ts";
import type { ReplayDeployment } from "./runs.ts";
import { queuedPhase, storedAs, STEPS_AT_END } from "./run-machine.ts";
import { outsideChange, type OutsideAction } from "./run-outside.ts";

// What changes a run from outside the engine: a replay, a cancel through the API, and the resume
// and cancel URLs a step's $.flow call gave out. What each does to the run is run-outside.ts's
// `outsideChange`; the store writes it as one conditional update (the store is the truth), then
// the node that drives the workflow's runs is told.

/** The request that called a resume URL, as `$resume_data` / `callback_request` hold it. */
export interface CallbackRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface RunActionsDeps {
  store: Store;
  secrets: SecretBox;
  runtime: SourceRuntime;
  version: string;
}

export class RunActions {
  readonly #d: RunActionsDeps;

  constructor(deps: RunActionsDeps) {
    this.#d = deps;
  }

  /**
   * Run now (POST /workflows/{id}/run): a new run of the workflow with `event` (a timer workflow
   * given none gets a timer event), started by nobody's request. Written queued, as a replay is,
   * so its id is known and the 202 durable before it runs, and the answer never waits for it.
   */
  async runNow(user: UserRow, w: WorkflowRow, event: unknown): Promise<string> {
    if (!w.active) throw new AppError("conflict", "this workflow is disabled: enable it (active: true) to run it");
    const t = await this.#d.runtime.targets.get(w.id);
    const timer = t && timerOf(t);
    const now = Date.now();
    const value = event === undefined && timer ? timerEvent(timer, now) : event;
    const eventJson = value === undefined ? undefined : JSON.stringify(value);
    // "HTTP" as when Run now went through the endpoint's inbox: what $errors name as its source_type
    const state = newRunState(w, user.id, { id: newId("r_"), startedAt: now, trigger: "HTTP", eventJson, startedBy: "run_now" }, this.#d.version);
    Object.assign(state.run, storedAs(queuedPhase(now)));
    return this.#write(w, state);
  }

  /**
   * A new run of the workflow's current deployment with the run's trigger event, `replay_of` the
   * run. Written as a queued run the engine takes up at once, so a 202 is durable.
   */
  async replay(user: UserRow, current: WorkflowRow, of: RunRow, deployment: ReplayDeployment): Promise<string> {
    if (!current.active) throw new AppError("conflict", "this workflow is disabled: enable it (active: true) to replay its runs");
    const w = deployment === "current" ? current : await this.#deployed(current, of.deployment_id);
    const now = Date.now();
    const state = newRunState(w, user.id, { id: newId("r_"), startedAt: now, trigger: of.trigger_kind, eventJson: of.trigger_event, replayOf: of.id }, this.#d.version);
    // queued as a run the concurrency gate turned away is: the engine finds both the same way
    Object.assign(state.run, storedAs(queuedPhase(now)));
    // an HTTP run's reply went to its own request; a replay has nobody to answer
    if (state.run.trigger_kind === "HTTP") state.run.response_status = null;
    return this.#write(w, state);
  }

  /**
   * A new run retrying `of` from one of its steps (docs/writing-workflows.md, "Fixing a failed
   * run"): its earlier steps' committed results copied (run-retry.ts), on the chosen deployment.
   * Written queued, so the 202 is durable.
   */
  async retry(user: UserRow, current: WorkflowRow, of: RunRow, opts: { from?: string; deployment: ReplayDeployment }): Promise<string> {
    if (!current.active) throw new AppError("conflict", "this workflow is disabled: enable it (active: true) to retry its runs");
    const w = opts.deployment === "current" ? current : await this.#deployed(current, of.deployment_id);
    const plan = planRetry(w, user.id, of, await this.#d.store.runs.steps(of.id), { id: newId("r_"), ...(opts.from === undefined ? {} : { from: opts.from }), now: Date.now(), version: this.#d.version });
    return this.#write(w, plan.state);
  }

  /** Writes a run that starts queued (a replay, a retry) and tells the engine; its id. */
  async #write(w: WorkflowRow, state: RunState): Promise<string> {
    const t = await this.#d.runtime.targets.get(w.id);
    if (!t) throw notFound("workflow");
    if (!(await this.#d.runtime.quotas.admit(t, "run"))) throw new AppError("quota_exceeded", "this account has used up its daily quota");
    try {
      await this.#d.store.runs.create(state.run, state.steps);
    } catch (e) {
      await this.#d.runtime.quotas.release(t).catch(() => undefined);
      throw e;
    }
    this.#d.runtime.runChanged(w.id, state.run.id, false);
    return state.run.id;
  }

  /** The workflow as the deployment `deploymentId` of it was; a 409 once it is no longer kept. */
  async #deployed(current: WorkflowRow, deploymentId: string): Promise<WorkflowRow> {
    if (deploymentId === current.deployment_id) return current;
    const d = await this.#d.store.workflows.deployment(current.id, deploymentId);
    if (!d) throw new AppError("conflict", `the run's deployment ${deploymentId} is no longer kept: replay it on the current deployment`);
    return { ...current, deployment_id: d.id, trigger: d.trigger, steps: d.steps, settings: d.settings };
  }

  /**
   * Cancels a running or waiting run: one conditional change of the row as read, so of a resume
   * and a cancel sent at once (on any nodes) exactly one wins; the other is a 409 saying what
   * happened (run-outside.ts `outsideChange`).
   */
  async cancel(run: RunRow, url?: { idx: number; runs: number }): Promise<void> {
    for (let row: RunRow | undefined = run, tries = 0; row; tries++) {
      const change = outsideChange(row, { type: "cancel", ...(url ? { url } : {}) }, Date.now());
      if (!change.ok) throw new AppError("conflict", change.conflict);
      if (await this.#d.store.runs.cancel(row.id, change.from, Date.now(), STEPS_AT_END)) {
        this.#d.runtime.runChanged(row.workflow_id, row.id, true);
        return;
      }
      // it changed since it was read (resumed, taken up, ended): judge it again as it is now
      row = tries < 3 ? await this.#d.store.runs.byId(row.id) : undefined;
    }
    throw new AppError("conflict", "the run changed while it was being cancelled: read it and try again");
  }

  /**
   * A resume or cancel URL was called. `key` names the wait it was given out for; a key that
   * isn't the run's reads like a missing run (404), a wait that is over is a 409.
   */
  async callback(runId: string, key: string, action: WaitAction, request: CallbackRequest): Promise<RunRow> {
    const named = runId.startsWith("r_") ? checkWaitKey(this.#d.secrets, runId, key) : undefined;
    const run = named ? await this.#d.store.runs.byId(runId) : undefined;
    if (!named || !run) throw notFound("run");
    if (action === "cancel") await this.cancel(run, named);
    else await this.#resume(run, { type: "resume", request: JSON.stringify(request), url: named });
    return run;
  }

  /**
   * The owner resumes a suspended run through the API (the dashboard's and the CLI's Resume), as
   * its resume URL would: whatever it waits for, delay, suspend or rerun, it goes on now.
   */
  async resume(run: RunRow, request: CallbackRequest): Promise<void> {
    await this.#resume(run, { type: "resume", request: JSON.stringify(request) });
  }

  async #resume(run: RunRow, action: OutsideAction): Promise<void> {
    const change = outsideChange(run, action, Date.now());
    if (!change.ok) throw new AppError("conflict", change.conflict);
    const wait = { from: change.from.wait!, to: change.to.wait! };
    if (!(await this.#d.store.runs.resume(run.id, wait.from, { wait: wait.to, ...(change.resumeData ? { resumeData: change.resumeData } : {}) }, Date.now()))) {
      // something came first (a cancel, another resume, its time): say what, as it is now
      const now = await this.#d.store.runs.byId(run.id);
      const again = now && outsideChange(now, action, Date.now());
      throw new AppError("conflict", again && !again.ok ? again.conflict : "the run is not waiting to be resumed any more");
    }
    this.#d.runtime.runChanged(run.workflow_id, run.id, false);
  }
}
