import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Daily invocation quotas reserved when a run is accepted, on every node at once (issue 27): one
// conditional UPDATE of the user's row takes a reservation only while reserved + 1 <= quota, so
// N nodes together accept at most the quota. The count restarts with each UTC day.
export function quotaReservationsSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("users").addColumn("reserved_day", "text").execute();
      await db.schema.alterTable("users").addColumn("invocations_reserved", "integer", (c) => c.notNull().defaultTo(0)).execute();
    },
  };
}
