import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A run executes the deployment it started on to its end (docs/writing-workflows.md, "Runs"):
// every deployment of a workflow (`d_...`, new with each change of its steps, trigger or
// settings) is kept here while the workflow's current one or a run (live or retained) names it.
// The workflows' current deployments are copied in, so runs waiting now keep theirs too.
export function workflowDeployments(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("workflow_deployments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workflow_id", "text", (c) => c.notNull())
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("steps", "text", (c) => c.notNull())
        .addColumn("settings", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("workflow_deployments_workflow").on("workflow_deployments").column("workflow_id").execute();
      const rows = await db.selectFrom("workflows").select(["id", "deployment_id", "trigger", "steps", "settings", "updated_at"]).execute();
      for (const w of rows as Array<{ id: string; deployment_id: string; trigger: string; steps: string; settings: string | null; updated_at: number }>) {
        await db
          .insertInto("workflow_deployments")
          .values({ id: w.deployment_id, workflow_id: w.id, trigger: w.trigger, steps: w.steps, settings: w.settings, created_at: w.updated_at })
          .execute();
      }
    },
  };
}
