import type { Kysely, Selectable } from "kysely";
import type { Database, WorkflowRunStepsTable, WorkflowRunsTable } from "../schema.ts";
import type { RunRow, RunStepRow, RunStore } from "../port.ts";
import { pageRows } from "./page.ts";

// Workflow runs (migration 014), as the API reads them. They are written only by commits
// (commit-runs.ts); they go with their workflow (workflows.ts) or their user (users.ts).

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function toRun(r: Selectable<WorkflowRunsTable>): RunRow {
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    user_id: r.user_id,
    deployment_id: r.deployment_id,
    status: r.status as RunRow["status"],
    cursor: Number(r.cursor),
    trigger_event: r.trigger_event,
    trigger_kind: r.trigger_kind as RunRow["trigger_kind"],
    summary: r.summary,
    response_status: num(r.response_status),
    replay_of: r.replay_of,
    started_at_ms: Number(r.started_at_ms),
    ended_at_ms: num(r.ended_at_ms),
    due_at_ms: num(r.due_at_ms),
  };
}

function toStep(r: Selectable<WorkflowRunStepsTable>): RunStepRow {
  return {
    run_id: r.run_id,
    idx: Number(r.idx),
    cell_id: r.cell_id,
    name: r.name,
    status: r.status as RunStepRow["status"],
    started_at_ms: num(r.started_at_ms),
    ended_at_ms: num(r.ended_at_ms),
    return_value: r.return_value,
    exports: r.exports,
    logs: r.logs,
    error: r.error,
    attempts: Number(r.attempts),
  };
}

export function runQueries(db: Kysely<Database>): RunStore {
  return {
    async byId(id) {
      const r = await db.selectFrom("workflow_runs").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRun(r) : undefined;
    },
    async steps(runId) {
      const rows = await db.selectFrom("workflow_run_steps").selectAll().where("run_id", "=", runId).orderBy("idx").execute();
      return rows.map(toStep);
    },
    async list(workflowId, page, status) {
      const where: Record<string, string> = { workflow_id: workflowId };
      if (status !== undefined) where.status = status;
      const p = await pageRows<Selectable<WorkflowRunsTable>>(db, "workflow_runs", undefined, page, where);
      return p && { items: p.items.map(toRun), total: p.total };
    },
  };
}

/** Deletes the runs (and steps) of a workflow that is being deleted; run it in its transaction. */
export async function deleteWorkflowRuns(db: Kysely<Database>, workflowId: string): Promise<void> {
  const runs = db.selectFrom("workflow_runs").select("id").where("workflow_id", "=", workflowId);
  await db.deleteFrom("workflow_run_steps").where("run_id", "in", runs).execute();
  await db.deleteFrom("workflow_runs").where("workflow_id", "=", workflowId).execute();
}

/** Deletes every run (and step) of a user who is being deleted; run it in their transaction. */
export async function deleteUserRuns(db: Kysely<Database>, userId: string): Promise<void> {
  const runs = db.selectFrom("workflow_runs").select("id").where("user_id", "=", userId);
  await db.deleteFrom("workflow_run_steps").where("run_id", "in", runs).execute();
  await db.deleteFrom("workflow_runs").where("user_id", "=", userId).execute();
}
