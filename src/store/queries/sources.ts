import type { Kysely, Selectable } from "kysely";
import type { Database, SourcesTable } from "../schema.ts";
import type { SourceRow, SourceStore } from "../port.ts";

function toRow(r: Selectable<SourcesTable>): SourceRow {
  return {
    id: r.id,
    user_id: r.user_id,
    component_id: r.component_id,
    name: r.name,
    name_slug: r.name_slug,
    props: JSON.parse(r.props),
    active: r.active === 1,
    endpoint_key: r.endpoint_key,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

function toColumns(s: SourceRow) {
  return {
    user_id: s.user_id,
    component_id: s.component_id,
    name: s.name,
    name_slug: s.name_slug,
    props: JSON.stringify(s.props),
    active: s.active ? 1 : 0,
    endpoint_key: s.endpoint_key,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function sourceQueries(db: Kysely<Database>): SourceStore {
  return {
    async insert(s) {
      await db
        .insertInto("sources")
        .values({ id: s.id, ...toColumns(s) })
        .execute();
    },
    async update(s) {
      await db.updateTable("sources").set(toColumns(s)).where("id", "=", s.id).execute();
    },
    async byId(id) {
      const r = await db.selectFrom("sources").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async slugsLike(userId, base) {
      const rows = await db
        .selectFrom("sources")
        .select("name_slug")
        .where("user_id", "=", userId)
        .where((eb) => eb.or([eb("name_slug", "=", base), eb("name_slug", "like", `${base}-%`)]))
        .execute();
      return new Set(rows.map((r) => r.name_slug));
    },
    async listActive() {
      const rows = await db.selectFrom("sources").selectAll().where("active", "=", 1).orderBy("seq", "asc").execute();
      return rows.map(toRow);
    },
    async byEndpointKey(key) {
      const r = await db.selectFrom("sources").selectAll().where("endpoint_key", "=", key).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async listAll(userId) {
      const rows = await db.selectFrom("sources").selectAll().where("user_id", "=", userId).orderBy("seq", "desc").execute();
      return rows.map(toRow);
    },
    async delete(id) {
      const r = await db.deleteFrom("sources").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
