import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

// Start-up errors about files in the data directory, said so that the operator knows what to
// fix: the path and the cause in words, with the system's code, e.g.
// `cannot open the database /x/tributary.db: the data directory is on a read-only file system (EROFS)`.
// main.ts prints it as `tributary failed to start: ...`.

const REASONS: Record<string, string> = {
  EROFS: "the data directory is on a read-only file system",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
  ENOENT: "a part of the path does not exist",
  ELOOP: "too many symbolic links in the path",
  EMFILE: "too many open files",
  EIO: "an I/O error",
  SQLITE_CANTOPEN: "SQLite cannot open it",
  SQLITE_NOTADB: "it is not a SQLite database",
  SQLITE_CORRUPT: "the database file is corrupt",
  SQLITE_READONLY: "the database is read-only",
  SQLITE_FULL: "the disk is full",
  SQLITE_IOERR: "an I/O error",
  SQLITE_BUSY: "another process holds the database locked",
  SQLITE_PERM: "permission denied",
};

/** The cause of a file error in words, e.g. "permission denied (EACCES)". */
export function fileErrorReason(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string") {
    // extended SQLite codes (SQLITE_IOERR_WRITE) are described by their primary code
    const reason = REASONS[code] ?? REASONS[code.replace(/^(SQLITE_[A-Z]+?)_[A-Z_]+$/, "$1")];
    if (reason) return `${reason} (${code})`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** An Error saying `what` failed on `path` and why; the original is its cause. */
export function fileError(what: string, path: string, err: unknown): Error {
  return new Error(`${what} ${path}: ${fileErrorReason(err)}`, { cause: err });
}

/** mkdir -p of the data directory, failing with the path and the cause. */
export function makeDataDirectory(dir: string): void {
  try {
    // the owner's alone: it holds the secret key, the database and the tenants' package cache
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw fileError("cannot create the data directory", dir, (err as NodeJS.ErrnoException).code === "ENOENT" ? mkdirCause(dir, err) : err);
  }
}

// Node's recursive mkdir reports ENOENT for whatever stopped it below an existing directory
// (EROFS, EACCES, ...). Making the first missing directory on its own gets the system's error.
function mkdirCause(dir: string, err: unknown): unknown {
  let missing = dir;
  while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
  try {
    mkdirSync(missing);
  } catch (real) {
    return real;
  }
  return err;
}
