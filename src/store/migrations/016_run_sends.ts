import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// What workflow steps queued with $.send.http and $.send.email (docs/writing-workflows.md, "Sending"): a row per send,
// written in the commit of the step that queued it, then sent (and retried) by the node that holds
// the workflow's partition. `request` is the request as JSON text, `label` what
// the run shows of it (method and URL, or the subject: the request may be a MiB); `partition` the
// workflow's, so a node scans only its own. The sender's scan reads pending rows by due time: a partial index
// holds only those.
export function runSendsSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("run_sends")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("run_id", "text", (c) => c.notNull())
        .addColumn("step_idx", "integer", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("partition", "integer", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("request", "text", (c) => c.notNull())
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("next_at_ms", "bigint", (c) => c.notNull())
        .addColumn("last_status", "integer")
        .addColumn("last_error", "text")
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addColumn("done_at_ms", "bigint")
        .execute();
      await db.schema.createIndex("run_sends_run").on("run_sends").columns(["run_id", "step_idx", "position"]).execute();
      await db.schema.createIndex("run_sends_user").on("run_sends").column("user_id").execute();
      await db.schema
        .createIndex("run_sends_pending")
        .on("run_sends")
        .columns(["status", "next_at_ms"])
        .where(sql.ref("status"), "=", sql.lit("pending"))
        .execute();
    },
  };
}
