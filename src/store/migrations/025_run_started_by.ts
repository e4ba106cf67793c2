import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// How a run started (docs/api.md, "Runs"): a request to the workflow's endpoint, Run now, a
// replay, a retry, an event delivered to it, or its timer. Only a run a request started was
// answered, so only its reply is shown. Nullable: rows from before, and rows a node of an earlier
// version writes, have none; the API then reads it from the run's trigger and lineage.
export function runStartedBy(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("workflow_runs").addColumn("started_by", "text").execute();
    },
  };
}
