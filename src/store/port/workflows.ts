import type { ComponentMeta } from "../../lib/component-meta.ts";
import type { Page, PageRequest } from "./paging.ts";

export interface WorkflowTrigger {
  type: "http" | "timer" | "none";
  /** http: the reply waits for the run's $.respond() (docs/writing-workflows.md, "Answering the request") */
  custom_response?: boolean;
  interval_seconds?: number | null;
  cron?: string | null;
}

export interface WorkflowStepRow {
  /** the cell id, `c_...`; new for every deployment */
  id: string;
  name: string;
  /** the module the step runs, as written: the step's own code, or its component's */
  code: string;
  /** the step is this saved component (`sc_`) ... */
  component_id?: string;
  /** ... or this registry component */
  key?: string;
  /** the module that runs when the code needed bundling (npm packages, Node modules) */
  bundle?: string;
  /** the step's component as analyzed (its props); absent on steps deployed before props existed */
  meta?: ComponentMeta;
  /** configured props (secrets sealed; `{{ }}` expressions kept as written) */
  props?: Record<string, unknown>;
}

export interface WorkflowRow {
  id: string;
  user_id: string;
  name: string;
  active: boolean;
  deployment_id: string;
  trigger: WorkflowTrigger;
  steps: WorkflowStepRow[];
  endpoint_key: string | null;
  /** how runs are retried and paced (docs/writing-workflows.md); null: the defaults */
  settings: WorkflowSettings | null;
  created_at: number;
  updated_at: number;
}

/** A workflow's run settings (docs/writing-workflows.md, "Retries, concurrency and rate"). */
export interface WorkflowSettings {
  /** a failed step runs again this many times (0-8), with exponential backoff from 10 s */
  retries?: number;
  /** at most this many runs execute at once (null: no bound) */
  concurrency?: number | null;
  /** runs started per window (null: no bound) */
  rate?: { limit: number; per_seconds: number } | null;
}

/** What one deployment of a workflow runs: kept while the workflow or a run names it. */
export interface WorkflowDeployment {
  id: string;
  workflow_id: string;
  trigger: WorkflowTrigger;
  steps: WorkflowStepRow[];
  settings: WorkflowSettings | null;
  created_at: number;
}

export interface WorkflowStore {
  /** writes the workflow and keeps its deployment */
  insert(row: WorkflowRow): Promise<void>;
  /**
   * Writes the workflow, keeps its (new) deployment, and lets go of its earlier deployments that
   * no run names any more but `previous` (the one it replaces: a run may be in its first step on
   * it, with no row yet). Run it in a transaction.
   */
  update(row: WorkflowRow, previous?: string): Promise<void>;
  /** a deployment of the workflow, while it is kept */
  deployment(workflowId: string, deploymentId: string): Promise<WorkflowDeployment | undefined>;
  byId(id: string): Promise<WorkflowRow | undefined>;
  byEndpointKey(key: string): Promise<WorkflowRow | undefined>;
  listActive(): Promise<WorkflowRow[]>;
  list(userId: string, page: PageRequest): Promise<Page<WorkflowRow> | undefined>;
  delete(id: string): Promise<boolean>;
}
