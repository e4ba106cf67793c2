import type { CreateTableBuilder, Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// `seq` orders every resource list by creation (newest first, docs/api.md, "Pagination";
// same-millisecond items keep their order); ids stay the public keys.
function withSeq(dialect: Dialect, table: CreateTableBuilder<string, never>): CreateTableBuilder<string, "seq"> {
  return dialect === "sqlite"
    ? table.addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    : table.addColumn("seq", "serial", (c) => c.primaryKey());
}

export function initialSchema(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withSeq(dialect, db.schema.createTable("users"))
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("username", "text", (c) => c.notNull().unique())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("admin", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("api_key_hash", "text", (c) => c.notNull().unique())
        .addColumn("daily_invocations_quota", "integer", (c) => c.notNull())
        .addColumn("daily_compute_time_quota", "bigint", (c) => c.notNull())
        .addColumn("usage_day", "text", (c) => c.notNull())
        .addColumn("invocations_used", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("compute_time_used", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();

      await withSeq(dialect, db.schema.createTable("components"))
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text")
        .addColumn("registry", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("key", "text")
        .addColumn("name", "text")
        .addColumn("version", "text")
        .addColumn("code", "text", (c) => c.notNull())
        .addColumn("code_hash", "text", (c) => c.notNull())
        .addColumn("component_url", "text")
        .addColumn("meta", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("components_user_hash").on("components").columns(["user_id", "code_hash"]).execute();
      await db.schema.createIndex("components_user_key").on("components").columns(["user_id", "key"]).execute();
      await db.schema.createIndex("components_registry_key").on("components").columns(["registry", "key"]).execute();

      await withSeq(dialect, db.schema.createTable("sources"))
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("component_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("name_slug", "text", (c) => c.notNull())
        .addColumn("props", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("endpoint_key", "text", (c) => c.unique())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sources_user_slug").on("sources").columns(["user_id", "name_slug"]).unique().execute();
      await db.schema.createIndex("sources_user_seq").on("sources").columns(["user_id", "seq"]).execute();

      await withSeq(dialect, db.schema.createTable("subscriptions"))
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("emitter_id", "text", (c) => c.notNull())
        .addColumn("listener_id", "text", (c) => c.notNull())
        .addColumn("event_name", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("subscriptions_unique")
        .on("subscriptions")
        .columns(["user_id", "emitter_id", "listener_id", "event_name"])
        .unique()
        .execute();
      await db.schema.createIndex("subscriptions_emitter").on("subscriptions").columns(["emitter_id", "event_name"]).execute();
      await db.schema.createIndex("subscriptions_listener").on("subscriptions").column("listener_id").execute();

      await withSeq(dialect, db.schema.createTable("auto_subscriptions"))
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("event_name", "text", (c) => c.notNull())
        .addColumn("listener_id", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("auto_subscriptions_unique")
        .on("auto_subscriptions")
        .columns(["user_id", "event_name", "listener_id"])
        .unique()
        .execute();
    },
  };
}
