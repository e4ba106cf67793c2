import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A retry of a run from one of its steps (POST /v1/runs/{id}/retry): a new run whose steps before
// that one are the original's committed results, `retry_of` naming the original (as `replay_of`
// names the run a replay repeats). Nullable: rows from before, and every other run, have none.
export function runRetries(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("workflow_runs").addColumn("retry_of", "text").execute();
    },
  };
}
