import pg from "pg";
import { PostgresDialect, type Dialect } from "kysely";

// COUNT(*) and BIGINT columns come back from pg as strings; every integer we store fits in a
// JS number (epoch seconds/ms, counters), so parse them as numbers once, here.
pg.types.setTypeParser(20, (v) => Number(v));

// A server that doesn't answer (a host gone from the network) would otherwise make a connection
// attempt wait for the OS's TCP timeout, minutes, holding its request all along. After this
// long it fails, as a storage fault (503 storage_unavailable), and the store's probe retries.
const CONNECT_TIMEOUT_MS = 10_000;

export function postgresDialect(url: string): Dialect {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that the server ends (a restart, an admin terminating it) is reported as
  // an 'error' event, which would crash the process if nobody listened. The pool has already
  // dropped that connection and the next query opens a new one, so there is nothing to do.
  pool.on("error", () => {});
  // A connection lost while checked out (a query in flight: the server crashed, was restarted, or
  // the network dropped) makes its client emit 'error' with no pool listener attached, which
  // would crash the process. The query itself fails with the same error (a storage fault, 503),
  // and the pool drops the client when it is released, so this listener only has to exist.
  pool.on("connect", (client) => client.on("error", () => {}));
  return new PostgresDialect({ pool });
}

/** The database named in a URL, for messages: host, port and database, never the password. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "(DATABASE_URL)";
  }
}
