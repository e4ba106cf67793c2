import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import type { Database } from "./schema.ts";

// COUNT(*) and BIGINT columns come back from pg as strings; every integer we store fits in a
// JS number (epoch seconds/ms, counters), so parse them as numbers once, here.
pg.types.setTypeParser(20, (v) => Number(v));

export function openPostgres(url: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that the server ends (a restart, an admin terminating it) is reported as
  // an 'error' event, which would crash the process if nobody listened. The pool has already
  // dropped that connection and the next query opens a new one, so there is nothing to do.
  pool.on("error", () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
