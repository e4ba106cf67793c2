import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// The delivery history of webhooks (GET /v1/webhooks/{id}/deliveries): a row per delivery,
// written as pending in the same transaction as the delivery itself, updated on every try, and
// finished as delivered or failed. The queue row (deliveries) goes when it is done; this one
// stays, the newest ones per webhook, so a user can see what became of their events and why.
export function webhookDeliveriesSchema(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("seq", dialect === "sqlite" ? "integer" : "bigserial", (c) =>
          dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        // the delivery's id (deliveries.id)
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("webhook_id", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("emitter_id", "text", (c) => c.notNull())
        // pending | delivered | failed
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("last_status_code", "integer")
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at_ms", "bigint")
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addColumn("delivered_at_ms", "bigint")
        .execute();
      await db.schema.createIndex("webhook_deliveries_webhook_seq").on("webhook_deliveries").columns(["webhook_id", "seq"]).execute();
    },
  };
}
