import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";
import type { Store } from "./port.ts";
import { openSqlite } from "./sqlite.ts";
import { openPostgres } from "./postgres.ts";
import { migrate } from "./migrations.ts";
import { userQueries } from "./queries/users.ts";
import { componentQueries } from "./queries/components.ts";
import { sourceQueries } from "./queries/sources.ts";
import { subscriptionQueries } from "./queries/subscriptions.ts";
import { eventQueries } from "./queries/events.ts";
import { workflowQueries } from "./queries/workflows.ts";
import { webhookQueries } from "./queries/webhooks.ts";
import { deliveryQueries } from "./queries/deliveries.ts";

export interface StoreOptions {
  kind: "sqlite" | "postgres";
  dataDir: string;
  databaseUrl?: string;
}

function bind(db: Kysely<Database>, kind: Store["kind"], root: Kysely<Database>): Store {
  return {
    kind,
    users: userQueries(db),
    components: componentQueries(db),
    sources: sourceQueries(db),
    subscriptions: subscriptionQueries(db),
    events: eventQueries(db),
    workflows: workflowQueries(db),
    webhooks: webhookQueries(db),
    deliveries: deliveryQueries(db),
    transaction: (fn) => db.transaction().execute((trx) => fn(bind(trx, kind, root))),
    async ping() {
      await db.selectFrom("users").select("seq").limit(1).execute();
    },
    close: () => root.destroy(),
  };
}

/** Opens the configured store and brings its schema up to date. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  const db = opts.kind === "postgres" ? openPostgres(opts.databaseUrl!) : openSqlite(opts.dataDir);
  await migrate(db, opts.kind);
  return bind(db, opts.kind, db);
}
