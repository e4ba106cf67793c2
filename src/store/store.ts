import { Kysely, sql } from "kysely";
import { join } from "node:path";
import type { Database } from "./schema.ts";
import type { Store } from "./port.ts";
import { SQLITE_FILE, sqliteDialect } from "./sqlite.ts";
import { describePostgresUrl, postgresDialect } from "./postgres.ts";
import { migrate } from "./migrations.ts";
import { withFaultTranslation } from "./fault-dialect.ts";
import { StoreHealth } from "./health.ts";
import { diskSpaceCheck } from "./disk-space.ts";
import { describeFault, isStorageUnavailable } from "./faults.ts";
import { userQueries } from "./queries/users.ts";
import { componentQueries } from "./queries/components.ts";
import { sourceQueries } from "./queries/sources.ts";
import { subscriptionQueries } from "./queries/subscriptions.ts";
import { eventQueries } from "./queries/events.ts";
import { workflowQueries } from "./queries/workflows.ts";
import { webhookQueries } from "./queries/webhooks.ts";
import { deliveryQueries } from "./queries/deliveries.ts";
import { webhookDeliveryQueries } from "./queries/webhook-deliveries.ts";
import { accountQueries } from "./queries/accounts/accounts.ts";
import { envVarQueries } from "./queries/env-vars.ts";
import { dataStoreQueries } from "./queries/data-stores.ts";
import { dataStoreRecordQueries } from "./queries/data-store-records.ts";
import { leaseQueries } from "./queries/leases.ts";
import { runQueries } from "./queries/runs/runs.ts";
import { runSendQueries } from "./queries/runs/run-sends.ts";
import { errorNoticeQueries } from "./queries/error-notices.ts";
import { oauthAppQueries } from "./queries/accounts/oauth-apps.ts";
import { oauthFlowQueries } from "./queries/accounts/oauth-flows.ts";

export interface StoreOptions {
  kind: "sqlite" | "postgres";
  dataDir: string;
  databaseUrl?: string;
}

function bind(db: Kysely<Database>, kind: Store["kind"], root: Kysely<Database>, health: StoreHealth): Store {
  return {
    kind,
    users: userQueries(db),
    components: componentQueries(db),
    sources: sourceQueries(db),
    subscriptions: subscriptionQueries(db),
    events: eventQueries(db, kind),
    workflows: workflowQueries(db),
    webhooks: webhookQueries(db),
    accounts: accountQueries(db),
    oauthApps: oauthAppQueries(db),
    oauthFlows: oauthFlowQueries(db),
    runs: runQueries(db),
    runSends: runSendQueries(db),
    errorNotices: errorNoticeQueries(db),
    envVars: envVarQueries(db, kind),
    dataStores: dataStoreQueries(db),
    dataStoreRecords: dataStoreRecordQueries(db),
    deliveries: deliveryQueries(db),
    webhookDeliveries: webhookDeliveryQueries(db),
    leases: leaseQueries(db, kind),
    transaction: (fn) => db.transaction().execute((trx) => fn(bind(trx, kind, root, health))),
    // The lock lives as long as its transaction, on the transaction's connection; `fn` works
    // through the pool meanwhile (it must not use that connection: it is busy holding the lock).
    exclusively: (name, fn) =>
      kind === "sqlite"
        ? fn()
        : db.transaction().execute(async (trx) => {
            await sql`select pg_advisory_xact_lock(hashtext(${"tributary:" + name}))`.execute(trx);
            return fn();
          }),
    get available() {
      return health.available;
    },
    async ping() {
      const degraded = health.check();
      await db.selectFrom("users").select("seq").limit(1).execute();
      return degraded;
    },
    onRecovered: (listener) => health.onRecovered(listener),
    onUnavailable: (listener) => health.onUnavailable(listener),
    close: () => {
      health.close();
      return root.destroy();
    },
  };
}

// The health probe: one upsert of one row (migration 004), a real write that needs the disk,
// the server and the connection to work, and nothing more.
function probe(db: Kysely<Database>): Promise<unknown> {
  const at = Date.now();
  return db
    .insertInto("health_probe")
    .values({ id: 1, at_ms: at })
    .onConflict((oc) => oc.column("id").doUpdateSet({ at_ms: at }))
    .execute();
}

/**
 * Opens the configured store and brings its schema up to date. A store that can't be opened or
 * written fails with a message that names the database and the cause, for main.ts to print.
 */
export async function openStore(opts: StoreOptions): Promise<Store> {
  // the probe runs only once the store is open, so `db` is set by then
  const health: StoreHealth = new StoreHealth((): Promise<unknown> => probe(db));
  const dialect = opts.kind === "postgres" ? postgresDialect(opts.databaseUrl!) : sqliteDialect(opts.dataDir);
  const db: Kysely<Database> = new Kysely<Database>({ dialect: withFaultTranslation(dialect, health.translate) });
  try {
    await migrate(db, opts.kind);
  } catch (err) {
    health.close();
    await db.destroy().catch(() => {});
    const cause = (err as Error).cause;
    if (!isStorageUnavailable(cause)) throw err;
    const what =
      opts.kind === "postgres"
        ? `cannot use the PostgreSQL database ${describePostgresUrl(opts.databaseUrl!)}`
        : `cannot write the database ${join(opts.dataDir, SQLITE_FILE)}`;
    throw new Error(`${what}: ${describeFault(cause)}`, { cause: err });
  }
  const store = bind(db, opts.kind, db, health);
  if (opts.kind === "sqlite") {
    const ping = store.ping;
    const disk = diskSpaceCheck(opts.dataDir);
    store.ping = async () => {
      const degraded = await ping();
      await disk();
      return degraded;
    };
  }
  return store;
}
