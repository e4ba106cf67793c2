import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// The inbox and the delivery queue are read back per source / per listener, oldest first, when a
// backlog larger than what is kept in memory drains (core/inbox-pump.ts, core/deliveries.ts).
export function backlogIndexes(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex("inbox_source").on("inbox").columns(["source_id", "seq"]).execute();
    },
  };
}
