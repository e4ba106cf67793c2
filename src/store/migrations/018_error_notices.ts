import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// When the owner of a source or workflow was last told by email that it failed: at most one such
// email per emitter per 10 minutes, however many nodes see its errors (a conditional upsert claims
// the next one: store/queries/error-notices.ts).
export function errorNoticesSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("error_notices")
        .addColumn("emitter_id", "text", (c) => c.primaryKey())
        .addColumn("last_sent_ms", "bigint", (c) => c.notNull())
        .execute();
    },
  };
}
