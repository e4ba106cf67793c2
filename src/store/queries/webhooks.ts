import type { Kysely, Selectable } from "kysely";
import type { Database, WebhooksTable } from "../schema.ts";
import type { WebhookRow, WebhookStore } from "../port.ts";
import { pageRows } from "./page.ts";

function toRow(r: Selectable<WebhooksTable>): WebhookRow {
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.name,
    description: r.description,
    url: r.url,
    active: r.active === 1,
    secret: r.secret,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

export function webhookQueries(db: Kysely<Database>): WebhookStore {
  return {
    async insert(w) {
      await db
        .insertInto("webhooks")
        .values({ ...w, active: w.active ? 1 : 0 })
        .execute();
    },
    async byId(id) {
      const r = await db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async list(userId, page) {
      const p = await pageRows<Selectable<WebhooksTable>>(db, "webhooks", userId, page);
      return p && { items: p.items.map(toRow), total: p.total };
    },
    async delete(id) {
      const r = await db.deleteFrom("webhooks").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
