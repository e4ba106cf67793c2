import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// One row that the store's health probe rewrites while the store is unavailable (store/health.ts):
// a real write, as small as one can be, in a table nothing else reads.
export function healthProbeSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("health_probe")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("at_ms", "bigint", (c) => c.notNull())
        .execute();
    },
  };
}
