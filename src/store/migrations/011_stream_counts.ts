import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// How many events each stream (emitter + event name) holds now, so a page of events reports its
// total_count without counting the stream (count(*) grows with history; this row doesn't). It is
// kept exact in the transaction of every write that adds or removes events: the group commit
// (inserts and retention trims), a deleted range, a deleted emitter. Filled here from the events
// already stored.
export function streamCountsSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("stream_counts")
        .addColumn("emitter_id", "text", (c) => c.notNull())
        .addColumn("event_name", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("total", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("stream_counts_pk", ["emitter_id", "event_name"])
        .execute();
      await db
        .insertInto("stream_counts")
        .columns(["emitter_id", "event_name", "user_id", "total"])
        .expression((eb) =>
          eb
            .selectFrom("events")
            .select((s) => ["emitter_id", "event_name", s.fn.min("user_id").as("user_id"), s.fn.countAll().as("total")])
            .groupBy(["emitter_id", "event_name"]),
        )
        .execute();
    },
  };
}
