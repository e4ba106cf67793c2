import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Durable runs (docs/writing-workflows.md, "Runs" and "Waiting"): each step commits on its own, so a run can be found part way,
// waiting (a delay, a suspension, a rerun, a retry's backoff) or orphaned by a crash.
//
// - `partition` is the workflow's partition (cluster/partition.ts), so a node scans only the runs
//   of the partitions it holds: with 100,000 suspended runs split across nodes, filtering in
//   the process would make every node read every other node's runs.
// - `wait` is what the run waits for, JSON ({kind, idx, runs, ...}); null while it runs.
// - a step's `resume_data` is the request that resumed it ($.flow.suspend's resume URL), which
//   later steps read as `steps.<name>.$resume_data`.
//
// - a workflow's `settings` (retries, concurrency, rate), JSON; null: the defaults.
//
// The scans read live runs only (status running or suspended): the partial index of migration 014
// already covers them; partition is filtered within it (at most the partitions one node holds).
export function runWaitsSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("workflow_runs")
        .addColumn("partition", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("workflow_runs").addColumn("wait", "text").execute();
      await db.schema.alterTable("workflow_run_steps").addColumn("resume_data", "text").execute();
      await db.schema.alterTable("workflows").addColumn("settings", "text").execute();
    },
  };
}
