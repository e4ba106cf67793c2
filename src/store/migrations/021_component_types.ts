import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A component's type ("source" or "action") as a column, so a list can be narrowed to one type
// in SQL and still page by cursor (GET /v1/components/registry?type=action). Components saved
// before it get theirs from their stored description, where no type means a source.
export function componentTypes(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("components").addColumn("type", "text", (c) => c.notNull().defaultTo("source")).execute();
      const rows = await db.selectFrom("components").select(["id", "meta"]).execute();
      for (const { id, meta } of rows as { id: string; meta: string }[]) {
        const type = componentType(JSON.parse(meta) as { type?: unknown });
        if (type !== "source") await db.updateTable("components").set({ type }).where("id", "=", id).execute();
      }
      await db.schema.createIndex("components_registry_type").on("components").columns(["registry", "type"]).execute();
    },
  };
}

/** The type a component's description gives it, as GET /components shows it: none means a source. */
export function componentType(meta: { type?: unknown }): string {
  return typeof meta.type === "string" && meta.type !== "" ? meta.type : "source";
}
