import { accessSync, chmodSync, closeSync, constants, openSync, statSync } from "node:fs";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { SqliteDialect, type Dialect } from "kysely";
import { fileError, makeDataDirectory } from "./file-errors.ts";
import { BACKSTOP_PAGES, startCheckpointer, type Checkpointer } from "./sqlite-checkpointer.ts";

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
// - wal_autocheckpoint: checkpoints run on a worker thread (sqlite-checkpointer.ts), off the
//   event loop; this connection only checkpoints past BACKSTOP_PAGES, if the worker falls behind.
// - journal_size_limit: a WAL that grew during a burst is cut back to 64 MiB once reset.
export const SQLITE_PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = NORMAL",
  "busy_timeout = 5000",
  "foreign_keys = ON",
  "cache_size = -65536",
  "temp_store = MEMORY",
  `wal_autocheckpoint = ${BACKSTOP_PAGES}`,
  "journal_size_limit = 67108864",
];

// Kysely prepares every statement it runs; preparing costs more than running a small query, and
// our queries are a fixed set of SQL strings, so prepared statements are kept and reused.
// better-sqlite3 is synchronous, so a statement is never used by two queries at once.
const STATEMENT_CACHE = 500;

function withStatementCache(file: Sqlite.Database, checkpointer: Checkpointer) {
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
      checkpointer.stop();
      file.close();
    },
  };
}

export const SQLITE_FILE = "tributary.db";

/**
 * Opens (creating when new) the data directory's database file and tunes it. Fails with an
 * error naming the path and the cause (read-only, permission denied, ...), for main.ts to print.
 */
export function sqliteDialect(dataDir: string): Dialect {
  const path = join(dataDir, SQLITE_FILE);
  makeDataDirectory(dataDir);
  try {
    // The file holds API key hashes, sealed secrets and every event: readable by this user only.
    // Creating it here (SQLite would use the umask's mode) sets that, and SQLite gives the -wal
    // and -shm files the mode of the database file. Opening for append also checks, with the
    // system's own error, that the file and the directory are writable.
    closeSync(openSync(path, "a", 0o600));
    restrictMode(path);
  } catch (err) {
    throw fileError("cannot open the database", path, err);
  }
  let file: Sqlite.Database | undefined;
  try {
    file = new Sqlite(path);
    for (const pragma of SQLITE_PRAGMAS) file.pragma(pragma);
  } catch (err) {
    file?.close();
    throw fileError("cannot open the database", path, directoryProblem(dataDir) ?? err);
  }
  return new SqliteDialect({ database: withStatementCache(file, startCheckpointer(path)) });
}

// A database made before files were created 0600 (or copied in with a looser mode) is narrowed
// to this user, and so are its -wal and -shm files. A file we don't own can't be changed; it
// stays as it is (the operator chose that), so that failure is ignored.
function restrictMode(path: string): void {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      const mode = statSync(f).mode & 0o777;
      if (mode & 0o077) chmodSync(f, mode & 0o700);
    } catch {
      // missing (-wal, -shm) or not ours
    }
  }
}

// SQLite reports a directory it can't create its -wal/-shm files in as SQLITE_CANTOPEN; the
// system's error about the directory says more.
function directoryProblem(dataDir: string): unknown {
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (err) {
    return err;
  }
}
