import { AppError } from "../lib/errors.ts";

// Storage faults: driver errors that say the store can't do its job right now (the disk is
// full, the file system went read-only, the database server is gone), as opposed to errors in
// what we asked (a constraint, a syntax error), which stay what they are. A fault becomes the
// client-facing `storage_unavailable` (503 + Retry-After): the request was not done and may be
// sent again, and the message says so without SQL, paths or hosts. The driver's own error is
// kept as the AppError's `cause`, which the log shows.

export type FaultKind = "full" | "read_only" | "unreachable" | "busy" | "failed";

/** How long a client should wait before trying again; the store probes more often than this. */
export const RETRY_AFTER_SECONDS = 5;

// better-sqlite3's SqliteError.code is the extended result code name, e.g. SQLITE_IOERR_WRITE.
// Matched by prefix, so every extended code of a primary one counts. SQLITE_BUSY reaches us
// only after busy_timeout has run out (another process holds the lock).
const SQLITE: [prefix: string, kind: FaultKind][] = [
  ["SQLITE_FULL", "full"],
  ["SQLITE_IOERR", "failed"],
  ["SQLITE_READONLY", "read_only"],
  ["SQLITE_CANTOPEN", "failed"],
  ["SQLITE_BUSY", "busy"],
  ["SQLITE_NOMEM", "failed"],
  ["SQLITE_CORRUPT", "failed"],
  ["SQLITE_NOTADB", "failed"],
  ["SQLITE_PROTOCOL", "failed"],
];

// PostgreSQL SQLSTATEs: class 53 insufficient resources (53100 disk_full, 53200 out_of_memory,
// 53300 too_many_connections), class 08 connection exceptions, 57P01-57P03 the server shutting
// down, crashed or starting, 58030 an I/O error on the server, XX001/XX002 corrupt data.
function postgresKind(code: string): FaultKind | undefined {
  if (code === "53100") return "full";
  if (code.startsWith("53")) return "busy";
  if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") return "unreachable";
  if (code === "58030" || code === "XX001" || code === "XX002") return "failed";
  return undefined;
}

// Socket errors from connecting to (or talking with) the database server.
const NETWORK = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// pg and pg-pool report a lost or unobtainable connection with plain Errors and these messages.
const LOST_CONNECTION =
  /^Connection terminated|timeout exceeded when trying to connect|is not queryable|Postgres connection has been discarded/;

/** The kind of storage fault `err` is, or undefined when it is an ordinary error. */
export function storageFault(err: unknown): FaultKind | undefined {
  if (!(err instanceof Error) || err instanceof AppError) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code.startsWith("SQLITE_")) {
      for (const [prefix, kind] of SQLITE) if (code.startsWith(prefix)) return kind;
      return undefined;
    }
    if (NETWORK.has(code)) return "unreachable";
    if (/^[0-9A-Z]{5}$/.test(code)) {
      const kind = postgresKind(code);
      if (kind) return kind;
    }
  }
  return LOST_CONNECTION.test(err.message) ? "unreachable" : undefined;
}

const CLIENT_MESSAGE: Record<FaultKind, string> = {
  full: "the service's storage is full; the request was not done, try again later",
  read_only: "the service's storage is read-only; the request was not done, try again later",
  unreachable: "the service cannot reach its database; the request was not done, try again later",
  busy: "the service's database is overloaded; the request was not done, try again later",
  failed: "the service's storage failed; the request was not done, try again later",
};

/** The error a client sees for a fault of this kind; `cause` is the driver's error, for the log. */
export function storageUnavailable(kind: FaultKind, cause?: unknown): AppError {
  const err = new AppError("storage_unavailable", CLIENT_MESSAGE[kind]);
  err.retryAfterSeconds = RETRY_AFTER_SECONDS;
  if (cause !== undefined) err.cause = cause;
  return err;
}

/** True for the AppError that storageUnavailable makes. */
export const isStorageUnavailable = (err: unknown): err is AppError =>
  err instanceof AppError && err.code === "storage_unavailable";

const OPERATOR_REASON: Record<FaultKind, string> = {
  full: "the disk is full",
  read_only: "it is read-only",
  unreachable: "the database server cannot be reached",
  busy: "the database is busy or out of resources",
  failed: "the storage failed",
};

/**
 * A fault described for the operator (start-up errors): the reason and the driver's code, e.g.
 * "the disk is full (SQLITE_FULL)". Ordinary errors give their own message.
 */
export function describeFault(err: unknown): string {
  const inner = isStorageUnavailable(err) && err.cause !== undefined ? err.cause : err;
  const kind = storageFault(inner);
  const message = inner instanceof Error ? inner.message : String(inner);
  if (!kind) return message;
  const code = (inner as { code?: unknown }).code;
  return `${OPERATOR_REASON[kind]} (${typeof code === "string" ? code : message})`;
}

/**
 * PostgreSQL refuses some text SQLite stores: NUL characters (22021 character_not_in_repertoire,
 * 22P05 untranslatable_character). That is the request's value, not the store, at fault: the
 * client gets a 400 naming it instead of a 500.
 */
export function refusedText(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== "22021" && code !== "22P05") return undefined;
  return new AppError("invalid_request", "text can't contain NUL characters (\\u0000)");
}
