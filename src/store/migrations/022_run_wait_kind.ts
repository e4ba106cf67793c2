import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// What a waiting run waits for, as a column the scans can compare (`wait_kind = 'queued'`), where
// they matched the start of the `wait` JSON text (which depended on its key order). Computed by
// the database from `wait` itself, so a node of the previous version, which writes `wait` and
// knows nothing of this column, still leaves it right while versions mix (docs/several-nodes.md).
// Virtual on SQLite (it can only add those), stored on PostgreSQL (it can only add those).
export function runWaitKind(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      const kind = dialect === "postgres" ? sql`generated always as ((wait::jsonb) ->> 'kind') stored` : sql`generated always as (json_extract(wait, '$.kind')) virtual`;
      await sql`alter table workflow_runs add column wait_kind text ${kind}`.execute(db);
      // the queued runs of a workflow, oldest first: started when one of its runs ends
      await db.schema
        .createIndex("workflow_runs_queued")
        .on("workflow_runs")
        .columns(["workflow_id", "seq"])
        .where(sql.ref("wait_kind"), "=", sql.lit("queued"))
        .execute();
    },
  };
}
