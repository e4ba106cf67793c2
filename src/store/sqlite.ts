import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "./schema.ts";

// The embedded store is tuned here, once. Why each pragma:
// - journal_mode=WAL: readers never block the writer and vice versa, and a commit is one
//   sequential append to the WAL instead of a rewrite of pages in the main file.
// - synchronous=NORMAL: in WAL mode this fsyncs at checkpoints, not at every commit. A power
//   cut can lose the last few commits but never corrupts the file; a process crash (the case
//   we promise to survive) loses nothing, because committed pages are already in the OS.
// - busy_timeout=5000: the CLI or a second process opening the file waits instead of failing.
// - foreign_keys=ON: SQLite leaves them off by default.
// - cache_size=-65536: 64 MiB page cache; the working set (recent events, sources) stays hot.
// - temp_store=MEMORY: sorts and temp indexes never touch disk.
// - wal_autocheckpoint stays at its default (1000 pages), which keeps the WAL small.
export const SQLITE_PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = NORMAL",
  "busy_timeout = 5000",
  "foreign_keys = ON",
  "cache_size = -65536",
  "temp_store = MEMORY",
];

// Kysely prepares every statement it runs; preparing costs more than running a small query, and
// our queries are a fixed set of SQL strings, so prepared statements are kept and reused.
// better-sqlite3 is synchronous, so a statement is never used by two queries at once.
const STATEMENT_CACHE = 500;

function withStatementCache(file: Sqlite.Database) {
  const cache = new Map<string, Sqlite.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = file.prepare(sql);
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      file.close();
    },
  };
}

export function openSqlite(dataDir: string): Kysely<Database> {
  mkdirSync(dataDir, { recursive: true });
  const file = new Sqlite(join(dataDir, "tributary.db"));
  for (const pragma of SQLITE_PRAGMAS) file.pragma(pragma);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
}
