import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// What the runtime keeps: events, each emitter's state (db, dedupe, last event id), the inbox of
// accepted-but-not-yet-run invocations (HTTP requests are recorded here before their 200), and
// the next due time of each timer (so a tick missed while down runs once at start).
export function eventsSchema(dialect: Dialect): Migration {
  const seq = dialect === "sqlite" ? "integer" : "bigserial";
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("events")
        .addColumn("seq", seq, (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn("emitter_id", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("event_name", "text", (c) => c.notNull())
        // the event id is `${ms}-${n}`; kept as numbers so ranges compare numerically
        .addColumn("ms", "bigint", (c) => c.notNull())
        .addColumn("n", "integer", (c) => c.notNull())
        .addColumn("emit_id", "text", (c) => c.notNull())
        .addColumn("indexed_at_ms", "bigint", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("meta", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("events_stream")
        .on("events")
        .columns(["emitter_id", "event_name", "ms", "n"])
        .unique()
        .execute();

      await db.schema
        .createTable("emitter_state")
        .addColumn("emitter_id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("db", "text", (c) => c.notNull())
        .addColumn("dedupe", "text", (c) => c.notNull())
        .addColumn("last_ms", "bigint", (c) => c.notNull())
        .addColumn("last_n", "integer", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("inbox")
        .addColumn("seq", seq, (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn("source_id", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("event", "text", (c) => c.notNull())
        .addColumn("received_at_ms", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("timers")
        .addColumn("source_id", "text", (c) => c.primaryKey())
        .addColumn("next_due_ms", "bigint", (c) => c.notNull())
        .execute();
    },
  };
}
