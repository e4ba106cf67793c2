import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// Issue 4's flow: workflows (emitters and listeners like sources), webhooks (listeners only),
// and the delivery queue. A delivery row is written in the same transaction as the event it
// carries and removed in the same transaction as its listener's result, so a delivery is never
// lost and at worst runs twice (at-least-once: docs/architecture.md, "Reliability rules").
export function flowSchema(dialect: Dialect): Migration {
  const seq = (big: boolean) => (dialect === "sqlite" ? "integer" : big ? "bigserial" : "serial");
  const key = (c: any) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("workflows")
        .addColumn("seq", seq(false), key)
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("deployment_id", "text", (c) => c.notNull())
        // {type: "http"|"timer"|"none", interval_seconds?, cron?}
        .addColumn("trigger", "text", (c) => c.notNull())
        // [{id: "c_...", name, code}]
        .addColumn("steps", "text", (c) => c.notNull())
        .addColumn("endpoint_key", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("workflows_user_seq").on("workflows").columns(["user_id", "seq"]).execute();
      await db.schema.createIndex("workflows_endpoint").on("workflows").column("endpoint_key").execute();

      await db.schema
        .createTable("webhooks")
        .addColumn("seq", seq(false), key)
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        // the signing secret, sealed like secret props (it must be read back to sign)
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("webhooks_user_seq").on("webhooks").columns(["user_id", "seq"]).execute();

      await db.schema
        .createTable("deliveries")
        .addColumn("seq", seq(true), key)
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("emitter_id", "text", (c) => c.notNull())
        .addColumn("listener_id", "text", (c) => c.notNull())
        .addColumn("event_name", "text", (c) => c.notNull())
        .addColumn("event_id", "text", (c) => c.notNull())
        // what the listener receives: the emitted payload (sources, workflows) or the event
        // summary item (webhooks), as JSON text; kept here because retention may trim the event
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("hops", "integer", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("next_at_ms", "bigint", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("deliveries_listener").on("deliveries").columns(["listener_id", "seq"]).execute();
    },
  };
}
