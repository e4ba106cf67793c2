import type { AccountStore, OAuthAppStore, OAuthFlowStore } from "./accounts.ts";
import type { ComponentStore } from "./components.ts";
import type { DataStoreRecordStore, DataStoreStore } from "./data-stores.ts";
import type { DeliveryStore } from "./deliveries.ts";
import type { EnvVarStore } from "./env-vars.ts";
import type { ErrorNoticeStore } from "./error-notices.ts";
import type { EventStore } from "./events.ts";
import type { LeaseStore } from "./leases.ts";
import type { RunSendStore } from "./run-sends.ts";
import type { RunStore } from "./runs.ts";
import type { SourceStore } from "./sources.ts";
import type { SubscriptionStore } from "./subscriptions.ts";
import type { UserStore } from "./users.ts";
import type { WebhookDeliveryStore, WebhookStore } from "./webhooks.ts";
import type { WorkflowStore } from "./workflows.ts";

// The Store: every aggregate's port (the modules beside this one) on one storage, with its
// transactions, its cross-node lock and how it reports storage faults.

export interface Store {
  readonly kind: "sqlite" | "postgres";
  events: EventStore;
  users: UserStore;
  components: ComponentStore;
  sources: SourceStore;
  subscriptions: SubscriptionStore;
  workflows: WorkflowStore;
  webhooks: WebhookStore;
  accounts: AccountStore;
  oauthApps: OAuthAppStore;
  oauthFlows: OAuthFlowStore;
  runs: RunStore;
  runSends: RunSendStore;
  errorNotices: ErrorNoticeStore;
  envVars: EnvVarStore;
  dataStores: DataStoreStore;
  dataStoreRecords: DataStoreRecordStore;
  deliveries: DeliveryStore;
  webhookDeliveries: WebhookDeliveryStore;
  leases: LeaseStore;
  /**
   * Runs `fn` while holding a lock named `name` that every node on this database shares
   * (PostgreSQL: an advisory lock; SQLite has one process). For work that must happen once
   * however many nodes start together: the admin user, the registry components.
   */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** runs `fn` in one transaction; the store handed to `fn` is bound to it */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;

  // Storage faults. A driver error meaning the store can't do its job (SQLite: disk full, I/O
  // error, read-only, locked past busy_timeout, corrupt; PostgreSQL: disk full and other class
  // 53, connection lost or refused, server shutting down) rejects the call with
  // `AppError("storage_unavailable")` (503, `retryAfterSeconds` set, the driver's error as its
  // `cause`); other errors are left as they are. The first fault makes the store unavailable;
  // from then on it probes every ~1.5 s with a one-row write, and the first probe that succeeds
  // makes it available again. Calls are never refused while unavailable: each tries for real.

  /** false from a storage fault until a probe write succeeds */
  readonly available: boolean;
  /**
   * Resolves when the store is usable (with what is wrong, while faults come and go but writes
   * succeed between them: degraded); rejects with the storage_unavailable AppError while unavailable.
   */
  ping(): Promise<string | undefined>;
  /**
   * `listener` is called once each time the store becomes available again after a fault, e.g. to
   * resume work that failed meanwhile (re-read the inbox and the deliveries). A listener that
   * throws or rejects is reported as a process warning and never affects the store or other
   * listeners. Returns a function that removes the listener.
   */
  onRecovered(listener: () => void): () => void;
  /**
   * `listener` is called once each time the store becomes unavailable, with the driver's error
   * that did it (for the log). Same rules as onRecovered.
   */
  onUnavailable(listener: (cause: unknown) => void): () => void;
  close(): Promise<void>;
}
