import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// OAuth 2 connected accounts (docs/connecting-accounts.md).
// - `oauth_apps`: one per app, configured by an admin; the client secret is sealed.
// - `oauth_flows`: one per authorization started. Only the state's SHA-256 is kept (a leaked
//   table can't finish someone's flow); `used_at_ms` makes a state single use with one conditional
//   UPDATE, and the row then says how the flow ended, which is what a waiting CLI or page polls.
// - accounts learn whether they are OAuth ones, their status, and when their token expires. The
//   `refresh_claim_ms` column is the cross-node single flight of a refresh: a node claims it with
//   a conditional UPDATE, and others wait for it to clear instead of refreshing too (a provider
//   that rotates refresh tokens would otherwise revoke one of the two).
export function oauthSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("oauth_apps")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("app", "text", (c) => c.notNull().unique())
        .addColumn("client_id", "text", (c) => c.notNull())
        .addColumn("client_secret", "text", (c) => c.notNull())
        .addColumn("authorize_url", "text", (c) => c.notNull())
        .addColumn("token_url", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("pkce", "integer", (c) => c.notNull())
        .addColumn("token_auth", "text", (c) => c.notNull())
        .addColumn("authorize_params", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("oauth_flows")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("state_hash", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("app", "text", (c) => c.notNull())
        .addColumn("account_id", "text")
        .addColumn("name", "text")
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("code_verifier", "text")
        .addColumn("expires_at_ms", "bigint", (c) => c.notNull())
        .addColumn("used_at_ms", "bigint")
        .addColumn("result_account_id", "text")
        .addColumn("error", "text")
        .execute();
      await db.schema.createIndex("oauth_flows_expiry").on("oauth_flows").column("expires_at_ms").execute();
      await db.schema.alterTable("accounts").addColumn("oauth", "integer", (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable("accounts").addColumn("status", "text", (c) => c.notNull().defaultTo("ok")).execute();
      await db.schema.alterTable("accounts").addColumn("status_reason", "text").execute();
      await db.schema.alterTable("accounts").addColumn("expires_at_ms", "bigint").execute();
      await db.schema.alterTable("accounts").addColumn("refresh_claim_ms", "bigint").execute();
    },
  };
}
