import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// Workflow runs (docs/api.md, "Runs"): a row per execution of a workflow and a row per step it reached,
// written by the commit of each step's end (CommitBatch.runs, runSteps) and read by the API.
// JSON values (the trigger event, return values, exports, logs, errors) are text.
//
// `seq` is the creation order: lists page newest first on (workflow_id, seq), and retention keeps
// a workflow's newest runs by it. The engine scans the runs that are not over (running,
// suspended) at start: a partial index holds only those, a small fraction of the table.
export function workflowRunsSchema(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("workflow_runs")
        .addColumn("seq", dialect === "sqlite" ? "integer" : "serial", (c) =>
          dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("workflow_id", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("deployment_id", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("cursor", "integer", (c) => c.notNull())
        .addColumn("trigger_event", "text", (c) => c.notNull())
        .addColumn("trigger_kind", "text", (c) => c.notNull())
        .addColumn("summary", "text")
        .addColumn("response_status", "integer")
        .addColumn("replay_of", "text")
        .addColumn("started_at_ms", "bigint", (c) => c.notNull())
        .addColumn("ended_at_ms", "bigint")
        .addColumn("due_at_ms", "bigint")
        .execute();
      await db.schema.createIndex("workflow_runs_workflow_seq").on("workflow_runs").columns(["workflow_id", "seq"]).execute();
      // a user's deletion finds their runs by it
      await db.schema.createIndex("workflow_runs_user").on("workflow_runs").column("user_id").execute();
      // the engine's scan says `status in ('running', 'suspended')`, this condition: SQLite uses
      // a partial index only for a query whose WHERE implies the index's
      await db.schema
        .createIndex("workflow_runs_live")
        .on("workflow_runs")
        .columns(["status", "due_at_ms"])
        .where(sql.ref("status"), "in", [sql.lit("running"), sql.lit("suspended")])
        .execute();

      await db.schema
        .createTable("workflow_run_steps")
        .addColumn("run_id", "text", (c) => c.notNull())
        .addColumn("idx", "integer", (c) => c.notNull())
        .addColumn("cell_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("started_at_ms", "bigint")
        .addColumn("ended_at_ms", "bigint")
        .addColumn("return_value", "text")
        .addColumn("exports", "text")
        .addColumn("logs", "text")
        .addColumn("error", "text")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("workflow_run_steps_pk", ["run_id", "idx"])
        .execute();
    },
  };
}
