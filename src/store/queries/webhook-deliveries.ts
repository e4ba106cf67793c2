import type { Kysely, Selectable } from "kysely";
import type { Database, WebhookDeliveriesTable } from "../schema.ts";
import type { DeliveryRow, WebhookDeliveryRow, WebhookDeliveryStore } from "../port.ts";
import { pageRows } from "./page.ts";

const numOrNull = (v: number | string | null) => (v === null ? null : Number(v));

function toRow(r: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRow {
  return {
    id: r.id,
    webhook_id: r.webhook_id,
    user_id: r.user_id,
    event_id: r.event_id,
    emitter_id: r.emitter_id,
    status: r.status as WebhookDeliveryRow["status"],
    attempts: Number(r.attempts),
    last_status_code: numOrNull(r.last_status_code),
    last_error: r.last_error,
    next_attempt_at_ms: numOrNull(r.next_attempt_at_ms),
    created_at_ms: Number(r.created_at_ms),
    delivered_at_ms: numOrNull(r.delivered_at_ms),
  };
}

/** The history row of a delivery just made: pending, not tried yet. */
export function pendingWebhookDelivery(d: DeliveryRow): WebhookDeliveryRow {
  return {
    id: d.id,
    webhook_id: d.listener_id,
    user_id: d.user_id,
    event_id: d.event_id,
    emitter_id: d.emitter_id,
    status: "pending",
    attempts: d.attempts,
    last_status_code: null,
    last_error: null,
    next_attempt_at_ms: d.next_at_ms,
    created_at_ms: d.created_at_ms,
    delivered_at_ms: null,
  };
}

export function webhookDeliveryQueries(db: Kysely<Database>): WebhookDeliveryStore {
  return {
    async record(row) {
      await db
        .insertInto("webhook_deliveries")
        .values(row)
        .onConflict((oc) =>
          oc.column("id").doUpdateSet({
            status: row.status,
            attempts: row.attempts,
            last_status_code: row.last_status_code,
            last_error: row.last_error,
            next_attempt_at_ms: row.next_attempt_at_ms,
            delivered_at_ms: row.delivered_at_ms,
          }),
        )
        .execute();
    },
    async list(webhookId, page) {
      const p = await pageRows<Selectable<WebhookDeliveriesTable>>(db, "webhook_deliveries", undefined, page, { webhook_id: webhookId });
      return p && { items: p.items.map(toRow), total: p.total };
    },
    async fail(webhookId, ids, error) {
      if (ids.length === 0) return;
      await db
        .updateTable("webhook_deliveries")
        .set({ status: "failed", last_error: error, next_attempt_at_ms: null })
        .where("webhook_id", "=", webhookId)
        .where("id", "in", ids)
        .where("status", "=", "pending")
        .execute();
    },
    async trim(webhookId, keep) {
      // Finished rows only: a pending one is a delivery still owed, and with a backlog of them
      // (a receiver down for hours) counting them would trim each failure as soon as it is written.
      const boundary = await db
        .selectFrom("webhook_deliveries")
        .select("seq")
        .where("webhook_id", "=", webhookId)
        .where("status", "!=", "pending")
        .orderBy("seq", "desc")
        .limit(1)
        .offset(keep)
        .executeTakeFirst();
      if (!boundary) return;
      await db
        .deleteFrom("webhook_deliveries")
        .where("webhook_id", "=", webhookId)
        .where("status", "!=", "pending")
        .where("seq", "<=", Number(boundary.seq))
        .execute();
    },
    async deleteWebhook(webhookId) {
      const r = await db.deleteFrom("webhook_deliveries").where("webhook_id", "=", webhookId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
