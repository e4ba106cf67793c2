import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// Connected accounts (Pipedream's `apn_` ids): an app's credentials, kept once and referenced by
// the app props of any number of sources. `auth` is sealed like secret props (it must be read
// back for every run); `auth_fields`, the names of its keys, is shown in the API, so it is clear.
export function accountsSchema(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("accounts")
        .addColumn("seq", dialect === "sqlite" ? "integer" : "serial", (c) =>
          dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("app", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("auth", "text", (c) => c.notNull())
        .addColumn("auth_fields", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("accounts_user_seq").on("accounts").columns(["user_id", "seq"]).execute();
    },
  };
}
