import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Retention keeps a workflow's newest ended runs (queries/commit/runs.ts trimRuns): it looks for the
// boundary among the ended runs newest first. Through the (workflow_id, seq) index it walked past
// every live run too, and 30,000 runs waiting in $.flow.delay made each trim 7 ms; this partial
// index holds only the ended ones.
export function endedRunsIndex(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex("workflow_runs_ended")
        .on("workflow_runs")
        .columns(["workflow_id", "seq"])
        .where(sql.ref("status"), "not in", [sql.lit("running"), sql.lit("suspended")])
        .execute();
    },
  };
}
