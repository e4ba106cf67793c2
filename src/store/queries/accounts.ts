import type { Kysely, Selectable } from "kysely";
import type { AccountsTable, Database } from "../schema.ts";
import type { AccountRow, AccountStore } from "../port.ts";
import { pageRows } from "./page.ts";

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
    async update(a) {
      await db.updateTable("accounts").set(toColumns(a)).where("id", "=", a.id).execute();
    },
    async byId(id) {
      const r = await db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
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
  };
}
