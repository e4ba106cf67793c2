import type { Kysely, Selectable } from "kysely";
import type { ComponentsTable, Database } from "../schema.ts";
import type { ComponentRow, ComponentStore } from "../port.ts";
import { pageRows } from "./page.ts";
import { componentType } from "../migrations/021_component_types.ts";

function toRow(r: Selectable<ComponentsTable>): ComponentRow {
  return {
    id: r.id,
    user_id: r.user_id,
    registry: r.registry === 1,
    key: r.key,
    code: r.code,
    code_hash: r.code_hash,
    component_url: r.component_url,
    meta: JSON.parse(r.meta),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
    bundle: r.bundle && r.bundle_hash ? { code: r.bundle, hash: r.bundle_hash, packages: JSON.parse(r.packages ?? "[]") } : null,
  };
}

export function componentQueries(db: Kysely<Database>): ComponentStore {
  const base = () => db.selectFrom("components").selectAll();
  const first = async (q: ReturnType<typeof base>) => {
    const r = await q.orderBy("seq", "desc").limit(1).executeTakeFirst();
    return r ? toRow(r) : undefined;
  };
  return {
    async insert(c) {
      await db
        .insertInto("components")
        .values({
          id: c.id,
          user_id: c.user_id,
          registry: c.registry ? 1 : 0,
          key: c.key,
          name: c.meta.name ?? null,
          version: c.meta.version ?? null,
          code: c.code,
          code_hash: c.code_hash,
          component_url: c.component_url,
          meta: JSON.stringify(c.meta),
          created_at: c.created_at,
          updated_at: c.updated_at,
          bundle: c.bundle?.code ?? null,
          bundle_hash: c.bundle?.hash ?? null,
          packages: c.bundle ? JSON.stringify(c.bundle.packages) : null,
          type: componentType(c.meta),
        })
        .execute();
    },
    byId: (id) => first(base().where("id", "=", id)),
    byUserHash: (userId, hash) =>
      first(base().where("user_id", "=", userId).where("registry", "=", 0).where("code_hash", "=", hash)),
    byUserKey: (userId, key) => first(base().where("user_id", "=", userId).where("registry", "=", 0).where("key", "=", key)),
    registryByKey: (key) => first(base().where("registry", "=", 1).where("key", "=", key)),
    registryByHash: (hash) => first(base().where("registry", "=", 1).where("code_hash", "=", hash)),
    async list(userId, page, type) {
      const where: Record<string, string | number> = { registry: userId === null ? 1 : 0 };
      if (type !== undefined) where.type = type;
      const p = await pageRows<Selectable<ComponentsTable>>(db, "components", userId ?? undefined, page, where);
      return p && { items: p.items.map(toRow), total: p.total };
    },
    async touch(id, updatedAt, componentUrl) {
      await db
        .updateTable("components")
        .set({ updated_at: updatedAt, component_url: componentUrl })
        .where("id", "=", id)
        .execute();
    },
  };
}
