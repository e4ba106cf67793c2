import type { Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import { initialSchema } from "./migrations/001_initial.ts";
import { eventsSchema } from "./migrations/002_events.ts";
import { flowSchema } from "./migrations/003_flow.ts";
import { healthProbeSchema } from "./migrations/004_health_probe.ts";
import { backlogIndexes } from "./migrations/005_backlog_indexes.ts";
import { componentBundles } from "./migrations/007_component_bundles.ts";
import { accountsSchema } from "./migrations/006_accounts.ts";
import { lowercaseEndpointKeys } from "./migrations/008_lowercase_endpoint_keys.ts";
import { webhookDeliveriesSchema } from "./migrations/009_webhook_deliveries.ts";
import { partitionLeasesSchema } from "./migrations/010_partition_leases.ts";
import { streamCountsSchema } from "./migrations/011_stream_counts.ts";
import { envVarsSchema } from "./migrations/012_env_vars.ts";
import { dataStoresSchema } from "./migrations/013_data_stores.ts";
import { workflowRunsSchema } from "./migrations/014_workflow_runs.ts";
import { runWaitsSchema } from "./migrations/015_run_waits.ts";
import { runSendsSchema } from "./migrations/016_run_sends.ts";
import { endedRunsIndex } from "./migrations/017_ended_runs_index.ts";
import { errorNoticesSchema } from "./migrations/018_error_notices.ts";
import { oauthSchema } from "./migrations/019_oauth.ts";
import { quotaReservationsSchema } from "./migrations/020_quota_reservations.ts";
import { componentTypes } from "./migrations/021_component_types.ts";
import { runWaitKind } from "./migrations/022_run_wait_kind.ts";
import { workflowDeployments } from "./migrations/023_workflow_deployments.ts";
import { runRetries } from "./migrations/024_run_retries.ts";
import { runStartedBy } from "./migrations/025_run_started_by.ts";
import { accountEventsKeys } from "./migrations/026_account_events_keys.ts";

export type Dialect = "sqlite" | "postgres";

// Numbered migrations, applied in order at start; each is written once for both dialects.
function all(dialect: Dialect): Record<string, Migration> {
  return {
    "001_initial": initialSchema(dialect),
    "002_events": eventsSchema(dialect),
    "003_flow": flowSchema(dialect),
    "004_health_probe": healthProbeSchema(),
    "005_backlog_indexes": backlogIndexes(),
    "007_component_bundles": componentBundles(),
    "006_accounts": accountsSchema(dialect),
    "008_lowercase_endpoint_keys": lowercaseEndpointKeys(),
    "009_webhook_deliveries": webhookDeliveriesSchema(dialect),
    "010_partition_leases": partitionLeasesSchema(),
    "011_stream_counts": streamCountsSchema(),
    "012_env_vars": envVarsSchema(),
    "013_data_stores": dataStoresSchema(dialect),
    "014_workflow_runs": workflowRunsSchema(dialect),
    "015_run_waits": runWaitsSchema(),
    "016_run_sends": runSendsSchema(),
    "017_ended_runs_index": endedRunsIndex(),
    "018_error_notices": errorNoticesSchema(),
    "019_oauth": oauthSchema(),
    "020_quota_reservations": quotaReservationsSchema(),
    "021_component_types": componentTypes(),
    "022_run_wait_kind": runWaitKind(dialect),
    "023_workflow_deployments": workflowDeployments(),
    "024_run_retries": runRetries(),
    "025_run_started_by": runStartedBy(),
    "026_account_events_keys": accountEventsKeys(),
  };
}

const MIGRATION_TABLE = "tributary_migrations";

/**
 * Brings the database up to this version's schema. A database a newer version has migrated
 * already (its migrations are additive: docs/several-nodes.md, "Rolling upgrades") is left as it
 * is, so a node of this version can still start on it while nodes are upgraded one by one.
 */
export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const known = all(dialect);
  const executed = await executedMigrations(db).catch((e: unknown) => {
    // as a migration's failure: openStore tells a storage fault (server gone) apart by the cause
    throw new Error(`reading the migrations applied failed: ${String((e as Error)?.message ?? e)}`, { cause: e });
  });
  if (executed.some((name) => !Object.hasOwn(known, name)) && Object.keys(known).every((name) => executed.includes(name))) return;
  const provider: MigrationProvider = { getMigrations: async () => known };
  const migrator = new Migrator({ db, provider, migrationTableName: MIGRATION_TABLE });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    // the cause is kept: openStore tells a storage fault (disk full, server gone) apart
    throw new Error(`migration ${failed?.migrationName ?? ""} failed: ${String((error as Error)?.message ?? error)}`, { cause: error });
  }
}

/** The migrations the database has had (none on a new one). */
async function executedMigrations(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === MIGRATION_TABLE)) return [];
  const rows = await db.selectFrom(MIGRATION_TABLE).select("name").execute();
  return rows.map((r: { name: string }) => r.name);
}
