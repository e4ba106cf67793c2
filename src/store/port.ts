// The Store port: what core needs from storage, in domain terms, one module per aggregate under
// port/ (the Store interface itself is port/store.ts). The Kysely adapter serves both SQLite
// (embedded) and PostgreSQL (scale-out); nothing above the port sees SQL. This file re-exports
// all of it so that importers name one module.

export * from "./port/paging.ts";
export * from "./port/users.ts";
export * from "./port/components.ts";
export * from "./port/sources.ts";
export * from "./port/subscriptions.ts";
export * from "./port/events.ts";
export * from "./port/error-notices.ts";
export * from "./port/deliveries.ts";
export * from "./port/webhooks.ts";
export * from "./port/accounts.ts";
export * from "./port/env-vars.ts";
export * from "./port/data-stores.ts";
export * from "./port/workflows.ts";
export * from "./port/runs.ts";
export * from "./port/run-sends.ts";
export * from "./port/commit.ts";
export * from "./port/leases.ts";
export * from "./port/store.ts";
