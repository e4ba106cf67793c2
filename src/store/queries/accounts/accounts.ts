import type { Kysely, Selectable } from "kysely";
import type { AccountsTable, Database } from "../../schema.ts";
import type { AccountRow, AccountStore } from "../../port.ts";
import { pageRows } from "../page.ts";

const num = (v: number | string | null) => (v === null ? null : Number(v));

function toRow(r: Selectable<AccountsTable>): AccountRow {
  return {
    id: r.id,
    user_id: r.user_id,
    app: r.app,
    name: r.name,
    auth: r.auth,
    auth_fields: JSON.parse(r.auth_fields),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
    oauth: Number(r.oauth) === 1,
    status: r.status === "error" ? "error" : "ok",
    status_reason: r.status_reason,
    expires_at_ms: num(r.expires_at_ms),
    events_key: r.events_key,
  };
}

function toColumns(a: AccountRow) {
  return {
    user_id: a.user_id,
    app: a.app,
    name: a.name,
    auth: a.auth,
    auth_fields: JSON.stringify(a.auth_fields),
    created_at: a.created_at,
    updated_at: a.updated_at,
    oauth: a.oauth ? 1 : 0,
    status: a.status,
    status_reason: a.status_reason,
    expires_at_ms: a.expires_at_ms,
    // never written back empty: the column is unique where it is set
    ...(a.events_key !== null ? { events_key: a.events_key } : {}),
  };
}

export function accountQueries(db: Kysely<Database>): AccountStore {
  return {
    async insert(a) {
      await db
        .insertInto("accounts")
        .values({ id: a.id, ...toColumns(a) })
        .execute();
    },
    // a refresh under way when the account is reconnected or edited must not write over it
    async update(a) {
      await db
        .updateTable("accounts")
        .set({ ...toColumns(a), refresh_claim_ms: null })
        .where("id", "=", a.id)
        .execute();
    },
    async byId(id) {
      const r = await db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async byEventsKey(key) {
      const r = await db.selectFrom("accounts").selectAll().where("events_key", "=", key).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async list(userId, page) {
      const p = await pageRows<Selectable<AccountsTable>>(db, "accounts", userId, page);
      return p && { items: p.items.map(toRow), total: p.total };
    },
    async delete(id) {
      const r = await db.deleteFrom("accounts").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async claimRefresh(id, now, untilMs) {
      const r = await db
        .updateTable("accounts")
        .set({ refresh_claim_ms: untilMs })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("refresh_claim_ms", "is", null), eb("refresh_claim_ms", "<", now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async releaseRefresh(id, untilMs) {
      await db.updateTable("accounts").set({ refresh_claim_ms: null }).where("id", "=", id).where("refresh_claim_ms", "=", untilMs).execute();
    },
    async refreshed(id, untilMs, f) {
      const r = await db
        .updateTable("accounts")
        .set({
          auth: f.auth,
          auth_fields: JSON.stringify(f.auth_fields),
          expires_at_ms: f.expires_at_ms,
          status: f.status,
          status_reason: f.status_reason,
          updated_at: f.updated_at,
          refresh_claim_ms: null,
        })
        .where("id", "=", id)
        .where("refresh_claim_ms", "=", untilMs)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async refreshClaimed(id, now) {
      const r = await db.selectFrom("accounts").select("refresh_claim_ms").where("id", "=", id).executeTakeFirst();
      return r !== undefined && r.refresh_claim_ms !== null && Number(r.refresh_claim_ms) >= now;
    },
  };
}
