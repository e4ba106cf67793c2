import { describe, it } from "node:test";
import assert from "node:assert/strict";
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { initialSchema } from "./001_initial.ts";
import { componentTypes } from "./021_component_types.ts";

// Migration 021 on a store made before it: each component's type column is what its stored
// description says, and a description without a type is a source (as GET /components shows it).

const component = (id: string, meta: Record<string, unknown>) => ({
  id, user_id: null, registry: 1, key: id, code: "x", code_hash: id, meta: JSON.stringify({ props: [], ...meta }), created_at: 0, updated_at: 0,
});

describe("migration 021: component types", () => {
  it("fills the type column from each component's description", async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(":memory:") }) });
    try {
      await initialSchema("sqlite").up(db);
      await db.insertInto("components").values([
        component("sc_action", { type: "action" }),
        component("sc_source", { type: "source" }),
        component("sc_untyped", {}),
        component("sc_empty", { type: "" }),
      ]).execute();
      await componentTypes().up(db);
      const rows = await db.selectFrom("components").select(["id", "type"]).orderBy("seq").execute();
      assert.deepEqual(rows, [
        { id: "sc_action", type: "action" },
        { id: "sc_source", type: "source" },
        { id: "sc_untyped", type: "source" },
        { id: "sc_empty", type: "source" },
      ]);
      // a component saved after it without naming a type is a source too
      await db.insertInto("components").values({ ...component("sc_later", {}), type: undefined }).execute();
      const later = await db.selectFrom("components").select("type").where("id", "=", "sc_later").executeTakeFirstOrThrow();
      assert.equal(later.type, "source");
    } finally {
      await db.destroy();
    }
  });
});
