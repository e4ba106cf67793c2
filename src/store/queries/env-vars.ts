import { sql, type Kysely, type Selectable } from "kysely";
import type { Database, EnvVarsTable } from "../schema.ts";
import type { EnvVarRow, EnvVarStore, Store } from "../port.ts";

function toRow(r: Selectable<EnvVarsTable>): EnvVarRow {
  return {
    user_id: r.user_id,
    name: r.name,
    value: r.value,
    secret: Number(r.secret) === 1,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

// Sorted here, not by ORDER BY: PostgreSQL's order of text follows the database's collation
// (en_US sorts "b" before "B_2" before "c"), SQLite's is by code point; names are ASCII.
const byName = (a: EnvVarRow, b: EnvVarRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function envVarQueries(db: Kysely<Database>, kind: Store["kind"]): EnvVarStore {
  return {
    async list(userId) {
      const rows = await db.selectFrom("env_vars").selectAll().where("user_id", "=", userId).execute();
      return rows.map(toRow).sort(byName);
    },
    // One statement writes the row when it exists already or the user has fewer than `max`, else
    // nothing. It is atomic on SQLite (one writer); on PostgreSQL two of them could both count
    // max - 1, so the puts of one user take turns on a lock held for their transaction.
    async put(v, max) {
      const secret = v.secret === undefined ? null : v.secret ? 1 : 0;
      const upsert = (q: Kysely<Database>) =>
        sql<Selectable<EnvVarsTable>>`
          insert into env_vars (user_id, name, value, secret, created_at, updated_at)
          select ${v.user_id}, ${v.name}, ${v.value}, coalesce(${secret}, 0), ${v.at}, ${v.at}
          where (select count(*) from env_vars where user_id = ${v.user_id}) < ${max}
             or exists (select 1 from env_vars where user_id = ${v.user_id} and name = ${v.name})
          on conflict (user_id, name) do update
            set value = excluded.value, secret = coalesce(${secret}, env_vars.secret), updated_at = excluded.updated_at
          returning *
        `.execute(q);
      const locked = async (trx: Kysely<Database>) => {
        await sql`select pg_advisory_xact_lock(hashtext(${"tributary:env:" + v.user_id}))`.execute(trx);
        return upsert(trx);
      };
      const r = kind === "sqlite" ? await upsert(db) : db.isTransaction ? await locked(db) : await db.transaction().execute(locked);
      return r.rows[0] ? toRow(r.rows[0]) : undefined;
    },
    async delete(userId, name) {
      const r = await db.deleteFrom("env_vars").where("user_id", "=", userId).where("name", "=", name).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
