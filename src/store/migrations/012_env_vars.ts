import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Users' environment variables (Pipedream's `process.env` for components): one row per user and
// name. `value` is sealed like connected accounts' auth, secret or not: every run of the user's
// components reads it back, so it can't be hashed, and a value marked not secret may still be
// something nobody should find in a database dump. Names are case-sensitive, as in Node.
export function envVarsSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("env_vars")
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("secret", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("env_vars_pk", ["user_id", "name"])
        .execute();
    },
  };
}
