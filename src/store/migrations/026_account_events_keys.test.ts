import { describe, it } from "node:test";
import assert from "node:assert/strict";
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { accountsSchema } from "./006_accounts.ts";
import { accountEventsKeys } from "./026_account_events_keys.ts";

// Migration 026 on a store with accounts made before it: each gets an app-events key of its own.

const account = (id: string) => ({ id, user_id: "u_1", app: "slack", name: id, auth: "sealed", auth_fields: "[]", created_at: 0, updated_at: 0 });

describe("migration 026: accounts' app-events keys", () => {
  it("gives every existing account a distinct 128-bit key, and a unique index keeps them apart", async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(":memory:") }) });
    try {
      await accountsSchema("sqlite").up(db);
      await db.insertInto("accounts").values([account("apn_1"), account("apn_2"), account("apn_3")]).execute();
      await accountEventsKeys().up(db);
      const keys = (await db.selectFrom("accounts").select("events_key").execute()).map((r) => r.events_key as string);
      assert.equal(keys.length, 3);
      for (const k of keys) assert.match(k, /^[0-9a-f]{32}$/);
      assert.equal(new Set(keys).size, 3);
      await assert.rejects(db.insertInto("accounts").values({ ...account("apn_4"), events_key: keys[0] }).execute(), /UNIQUE/);
    } finally {
      await db.destroy();
    }
  });
});
