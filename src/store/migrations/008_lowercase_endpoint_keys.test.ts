import { describe, it } from "node:test";
import assert from "node:assert/strict";
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { initialSchema } from "./001_initial.ts";
import { flowSchema } from "./003_flow.ts";
import { lowercaseEndpointKeys } from "./008_lowercase_endpoint_keys.ts";

// Migration 008 on a store made before it: mixed-case keys become lower-case, and a key whose
// lower-cased form is taken (by a source or a workflow) is left as it was instead of failing.

const source = (id: string, key: string | null, n: number) => ({
  id, user_id: "u_1", component_id: "sc_1", name: id, name_slug: `s${n}`, props: "{}", active: 1, endpoint_key: key, created_at: 0, updated_at: 0,
});
const workflow = (id: string, key: string | null) => ({
  id, user_id: "u_1", name: id, active: 1, deployment_id: "d_1", trigger: "{}", steps: "[]", endpoint_key: key, created_at: 0, updated_at: 0,
});

describe("migration 008: lower-cased endpoint keys", () => {
  it("lower-cases keys, never breaks the unique index, and leaves a key whose lower case is taken", async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(":memory:") }) });
    try {
      await initialSchema("sqlite").up(db);
      await flowSchema("sqlite").up(db);
      await db.insertInto("sources").values([
        source("dc_mixed", "AbC_-9", 1),
        source("dc_clash", "XyZ", 2),
        source("dc_taken", "xyz", 3),
        source("dc_lower", "already", 4),
        source("dc_none", null, 5),
        source("dc_pair1", "PaIr", 6),
        source("dc_pair2", "pAiR", 7),
      ]).execute();
      await db.insertInto("workflows").values([workflow("p_mixed", "WfKey"), workflow("p_cross", "AbC_-9x"), workflow("p_src", "Dup")]).execute();
      await db.insertInto("sources").values(source("dc_dup", "dup", 8)).execute();

      const up = lowercaseEndpointKeys().up;
      await up(db);
      await up(db); // a second run changes nothing and fails nothing

      const keys = async (table: string) =>
        Object.fromEntries((await db.selectFrom(table).select(["id", "endpoint_key"]).execute()).map((r) => [r.id, r.endpoint_key]));
      const sources = await keys("sources");
      assert.equal(sources.dc_mixed, "abc_-9");
      assert.equal(sources.dc_clash, "XyZ", "its lower case belongs to another source: left as it was");
      assert.equal(sources.dc_taken, "xyz");
      assert.equal(sources.dc_lower, "already");
      assert.equal(sources.dc_none, null);
      // of two keys that fold to the same text, the first is lower-cased and the second left
      assert.deepEqual([sources.dc_pair1, sources.dc_pair2].sort(), ["pAiR", "pair"]);
      assert.equal(sources.dc_dup, "dup");
      const workflows = await keys("workflows");
      assert.equal(workflows.p_mixed, "wfkey");
      assert.equal(workflows.p_cross, "abc_-9x");
      assert.equal(workflows.p_src, "Dup", "a workflow's key is not folded onto a source's");
    } finally {
      await db.destroy();
    }
  });
});
