import type { Kysely, Selectable } from "kysely";
import type { Database, WorkflowsTable } from "../schema.ts";
import type { WorkflowRow, WorkflowStore } from "../port.ts";
import { pageRows } from "./page.ts";
import { deleteWorkflowRuns } from "./runs/runs.ts";

function toRow(r: Selectable<WorkflowsTable>): WorkflowRow {
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.name,
    active: r.active === 1,
    deployment_id: r.deployment_id,
    trigger: JSON.parse(r.trigger),
    steps: JSON.parse(r.steps),
    endpoint_key: r.endpoint_key,
    settings: r.settings === null ? null : JSON.parse(r.settings),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

function toColumns(w: WorkflowRow) {
  return {
    user_id: w.user_id,
    name: w.name,
    active: w.active ? 1 : 0,
    deployment_id: w.deployment_id,
    trigger: JSON.stringify(w.trigger),
    steps: JSON.stringify(w.steps),
    endpoint_key: w.endpoint_key,
    settings: w.settings === null ? null : JSON.stringify(w.settings),
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

/** Keeps the workflow's current deployment (written once: a deployment never changes). */
async function keepDeployment(db: Kysely<Database>, w: WorkflowRow): Promise<void> {
  await db
    .insertInto("workflow_deployments")
    .values({ id: w.deployment_id, workflow_id: w.id, trigger: JSON.stringify(w.trigger), steps: JSON.stringify(w.steps), settings: w.settings === null ? null : JSON.stringify(w.settings), created_at: w.updated_at })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

export function workflowQueries(db: Kysely<Database>): WorkflowStore {
  return {
    async insert(w) {
      await db
        .insertInto("workflows")
        .values({ id: w.id, ...toColumns(w) })
        .execute();
      await keepDeployment(db, w);
    },
    async update(w, previous) {
      await db.updateTable("workflows").set(toColumns(w)).where("id", "=", w.id).execute();
      await keepDeployment(db, w);
      // earlier deployments go once no run (live or retained) names them
      const named = db.selectFrom("workflow_runs").select("deployment_id").where("workflow_id", "=", w.id);
      const kept = previous === undefined ? [w.deployment_id] : [w.deployment_id, previous];
      await db.deleteFrom("workflow_deployments").where("workflow_id", "=", w.id).where("id", "not in", kept).where("id", "not in", named).execute();
    },
    async deployment(workflowId, deploymentId) {
      const r = await db.selectFrom("workflow_deployments").selectAll().where("id", "=", deploymentId).where("workflow_id", "=", workflowId).executeTakeFirst();
      return r && { id: r.id, workflow_id: r.workflow_id, trigger: JSON.parse(r.trigger), steps: JSON.parse(r.steps), settings: r.settings === null ? null : JSON.parse(r.settings), created_at: Number(r.created_at) };
    },
    async byId(id) {
      const r = await db.selectFrom("workflows").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async byEndpointKey(key) {
      const r = await db.selectFrom("workflows").selectAll().where("endpoint_key", "=", key).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async listActive() {
      const rows = await db.selectFrom("workflows").selectAll().where("active", "=", 1).orderBy("seq", "asc").execute();
      return rows.map(toRow);
    },
    async list(userId, page) {
      const p = await pageRows<Selectable<WorkflowsTable>>(db, "workflows", userId, page);
      return p && { items: p.items.map(toRow), total: p.total };
    },
    // its runs go with it (a run without its workflow can't be read or replayed); callers run
    // this inside a transaction
    async delete(id) {
      await deleteWorkflowRuns(db, id);
      await db.deleteFrom("workflow_deployments").where("workflow_id", "=", id).execute();
      const r = await db.deleteFrom("workflows").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
