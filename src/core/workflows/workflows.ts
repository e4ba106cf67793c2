import type { CoreDeps } from "../deps.ts";
import type { PageRequest, UserRow, WorkflowRow, WorkflowStepRow } from "../../store/port.ts";
import { invalid, notFound, type FieldProblem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { nowSeconds } from "../../lib/clock.ts";
import { runnableSteps, workflowCode } from "../../runtime/workflow-code.ts";
import type { Components } from "../components.ts";
import { StepDeployer, stepView } from "./workflow-steps.ts";
import { DynamicProps } from "../dynamic-props.ts";
import { AutoSubscriptions } from "../auto-subscriptions.ts";
import { endpointUrl, newEndpointKey } from "../endpoint.ts";
import type { SourceRuntime } from "../runtime/source-runtime.ts";
import { timerOf } from "../flow/timers.ts";
import { testStep, type StepTestInput, type StepTestResult } from "./step-test.ts";
import { checkActive, checkName, checkSettings, checkSteps, checkTrigger, throwIfAny, type StepInput, type WorkflowInput } from "./workflow-input.ts";

// Workflows (docs/api.md): an ordered list of steps run in the sandbox on a trigger (HTTP,
// timer) or on deliveries. Every change makes a new deployment (`d_`) with new cell ids (`c_`),
// so a $errors event names the exact code that failed. They run on the sources' machinery
// (see workflow-target.ts).

export interface WorkflowView {
  id: string;
  name: string;
  active: boolean;
  deployment_id: string;
  trigger: Record<string, unknown>;
  steps: ReturnType<typeof stepView>[];
  settings: { retries: number; concurrency: number | null; rate: { limit: number; per_seconds: number } | null };
  created_at: number;
  updated_at: number;
}

/** One deployment of a workflow (GET /workflows/{id}/deployments/{deployment_id}). */
export interface DeploymentView extends Pick<WorkflowView, "steps" | "trigger" | "settings" | "created_at"> {
  id: string;
  workflow_id: string;
  /** whether it is the workflow's current deployment (what a replay or retry runs by default) */
  current: boolean;
}

export class Workflows {
  readonly #deps: CoreDeps;
  readonly #rt: SourceRuntime;
  readonly #steps: StepDeployer;

  constructor(deps: CoreDeps, runtime: SourceRuntime, components: Components) {
    this.#deps = deps;
    this.#rt = runtime;
    this.#steps = new StepDeployer(deps, components, new DynamicProps(deps, components, runtime));
  }

  view(w: WorkflowRow): WorkflowView {
    const t = w.trigger;
    const trigger =
      t.type === "http"
        ? { type: "http", endpoint_url: endpointUrl(this.#deps.publicUrl, w.endpoint_key), custom_response: t.custom_response === true }
        : t.type === "timer"
          ? { type: "timer", interval_seconds: t.interval_seconds ?? null, cron: t.cron ?? null }
          : { type: "none" };
    return {
      id: w.id,
      name: w.name,
      active: w.active,
      deployment_id: w.deployment_id,
      trigger,
      steps: w.steps.map(stepView),
      settings: { retries: w.settings?.retries ?? 0, concurrency: w.settings?.concurrency ?? null, rate: w.settings?.rate ?? null },
      created_at: w.created_at,
      updated_at: w.updated_at,
    };
  }

  async create(user: UserRow, input: WorkflowInput): Promise<WorkflowRow> {
    const problems: FieldProblem[] = [];
    const name = checkName(input.name, problems);
    const steps = checkSteps(input.steps, problems);
    const trigger = checkTrigger(input.trigger, problems) ?? { type: "none" };
    const active = checkActive(input.active, problems) ?? true;
    const settings = checkSettings(input.settings, problems) ?? null;
    if (name === undefined && input.name === undefined) problems.push({ field: "name", message: "is required" });
    if (steps === undefined && input.steps === undefined) problems.push({ field: "steps", message: "is required" });
    throwIfAny(problems);
    const now = nowSeconds();
    const row: WorkflowRow = {
      id: newId("p_"),
      user_id: user.id,
      name: name!,
      active,
      deployment_id: newId("d_"),
      trigger,
      steps: await this.#deployable(user, steps!),
      endpoint_key: trigger.type === "http" ? newEndpointKey() : null,
      settings,
      created_at: now,
      updated_at: now,
    };
    await this.#deps.store.transaction(async (tx) => {
      await tx.workflows.insert(row);
      await new AutoSubscriptions(tx).applyTo(user.id, row.id);
    });
    this.#rt.routes.invalidate(user.id);
    await this.#arm(row);
    this.#rt.changed(user.id, row.id);
    return row;
  }

  async get(user: UserRow, id: string): Promise<WorkflowRow> {
    const w = id.startsWith("p_") ? await this.#deps.store.workflows.byId(id) : undefined;
    if (!w || w.user_id !== user.id) throw notFound("workflow");
    return w;
  }

  /**
   * A deployment of the user's workflow as it was (the code a run ran), shown as the workflow
   * shows its steps; a 404 for one of another workflow, or no longer kept (no run names it).
   */
  async deployment(user: UserRow, id: string, deploymentId: string): Promise<DeploymentView> {
    const w = await this.get(user, id);
    const d = deploymentId.startsWith("d_") ? await this.#deps.store.workflows.deployment(w.id, deploymentId) : undefined;
    if (!d) throw notFound("deployment");
    const shown = this.view({ ...w, deployment_id: d.id, trigger: d.trigger, steps: d.steps, settings: d.settings });
    return { id: d.id, workflow_id: w.id, created_at: d.created_at, current: d.id === w.deployment_id, steps: shown.steps, trigger: shown.trigger, settings: shown.settings };
  }

  /** PUT: given fields replace the current ones; `active` omitted means true, as for sources. */
  async update(user: UserRow, id: string, input: WorkflowInput): Promise<WorkflowRow> {
    const current = await this.get(user, id);
    const problems: FieldProblem[] = [];
    const name = checkName(input.name, problems);
    const steps = checkSteps(input.steps, problems);
    const trigger = checkTrigger(input.trigger, problems);
    const active = checkActive(input.active, problems) ?? true;
    const settings = checkSettings(input.settings, problems);
    throwIfAny(problems);
    const nextTrigger = trigger ?? current.trigger;
    const next: WorkflowRow = {
      ...current,
      name: name ?? current.name,
      active,
      deployment_id: newId("d_"),
      trigger: nextTrigger,
      steps: steps ? await this.#deployable(user, steps, current.steps) : current.steps.map((s) => ({ ...s, id: newId("c_") })),
      endpoint_key: nextTrigger.type === "http" ? (current.endpoint_key ?? newEndpointKey()) : null,
      settings: settings === undefined ? current.settings : settings,
      updated_at: nowSeconds(),
    };
    this.#rt.timers.cancel(id);
    await this.#deps.store.transaction((tx) => tx.workflows.update(next, current.deployment_id));
    this.#rt.targets.invalidate(id);
    // a timer that was running and stays the same keeps its schedule (a rename, new steps)
    const sameTimer = current.active && JSON.stringify(current.trigger) === JSON.stringify(next.trigger);
    await this.#arm(next, !sameTimer);
    this.#rt.changed(user.id, id);
    return next;
  }

  async delete(user: UserRow, id: string): Promise<void> {
    await this.get(user, id);
    this.#rt.timers.cancel(id);
    await this.#deps.store.transaction(async (tx) => {
      await tx.workflows.delete(id);
      await tx.subscriptions.deleteNaming(id);
      await tx.subscriptions.deleteAutoNaming(id);
      await tx.events.deleteEmitter(id);
      await tx.deliveries.deleteListener(id);
    });
    this.#rt.gone(id, user.id);
  }

  async list(user: UserRow, page: PageRequest) {
    const result = await this.#deps.store.workflows.list(user.id, page);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }

  // Every step is prepared (bundled, analyzed, its props checked) and the workflow loaded in the
  // sandbox before anything is stored: a step that doesn't compile, imports what isn't available
  // or has no run() fails the call (422) and names the step.
  /** Runs one step of the user's workflow on one of its past runs, committing nothing (step-test.ts). */
  async testStep(user: UserRow, id: string, name: string, input: StepTestInput): Promise<StepTestResult> {
    const w = await this.get(user, id);
    return testStep(
      {
        invocations: this.#rt.invocations,
        version: this.#deps.version,
        email: this.#deps.smtp !== undefined,
        // validated and bundled as a save would; its saved props, secrets as shown, keep their values
        draft: async (u, _w, saved, draft) => {
          const shown = stepView(saved);
          const input = { ...shown, ...(draft.code === undefined ? {} : { code: draft.code, key: undefined, component_id: undefined }), props: draft.props ?? shown.props };
          const [row] = await this.#steps.deploy(u, [input as StepInput], [saved]);
          return row!;
        },
        run: async (u, wf, runId) => {
          const run = runId.startsWith("r_") ? await this.#deps.store.runs.byId(runId) : undefined;
          if (!run || run.user_id !== u.id || run.workflow_id !== wf.id) throw notFound("run");
          return { run, steps: await this.#deps.store.runs.steps(run.id) };
        },
      },
      user,
      w,
      name,
      input,
    );
  }

  async #deployable(user: UserRow, steps: StepInput[], previous?: WorkflowStepRow[]): Promise<WorkflowStepRow[]> {
    const rows = await this.#steps.deploy(user, steps, previous);
    await this.#deps.analyzer.analyze(workflowCode(runnableSteps(rows)));
    return rows;
  }

  /** `fresh`: the schedule starts from now; else from the stored next due time */
  async #arm(w: WorkflowRow, fresh = true): Promise<void> {
    const t = await this.#rt.targets.get(w.id);
    if (t && w.active && timerOf(t)) await this.#rt.timers.schedule(t, fresh);
  }
}
