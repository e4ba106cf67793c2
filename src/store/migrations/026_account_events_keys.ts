import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Each connected account gets an app-events URL, /app-events/{events_key} (docs/connecting-accounts.md,
// "App events"): what an app (Slack's Event Subscriptions, a Shopify webhook) sends there reaches
// the apphook props bound to the account. The key is 128 random bits, like an endpoint's; the
// accounts made before this migration get theirs here, so every account has one.
export function accountEventsKeys(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("accounts").addColumn("events_key", "text").execute();
      const rows = (await db.selectFrom("accounts").select("id").execute()) as { id: string }[];
      for (const { id } of rows) {
        await db.updateTable("accounts").set({ events_key: randomBytes(16).toString("hex") }).where("id", "=", id).execute();
      }
      await db.schema.createIndex("accounts_events_key").on("accounts").column("events_key").unique().execute();
    },
  };
}
