// The one registry of error codes. Every error a client can see has a code here, and the
// HTTP layer turns an AppError into the one envelope (docs/api.md, "Errors").

export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  /** the resource is still in use (an account that sources use), or disabled (run-now) */
  conflict: 409,
  /** the user has as many of something as allowed (environment variables, a data store's keys): delete some first */
  limit_reached: 409,
  /** the client took too long to send its request's headers or body */
  request_timeout: 408,
  unsupported_media_type: 415,
  payload_too_large: 413,
  /** the request line (path and query) is longer than the service reads */
  uri_too_long: 414,
  /** an Expect header other than 100-continue */
  expectation_failed: 417,
  invalid_component: 422,
  hook_failed: 422,
  quota_exceeded: 429,
  /** too much accepted work waits already (TRIBUTARY_MAX_BACKLOG): try again after Retry-After */
  overloaded: 429,
  /** the request's headers are larger than the service reads */
  headers_too_large: 431,
  internal: 500,
  /** an HTTP source's run failed before it responded (customResponse) */
  source_failed: 500,
  /** a workflow with custom_response ended (or suspended) without calling $.respond() */
  no_response: 502,
  /** a workflow with custom_response failed at a step before it responded */
  step_failed: 502,
  unavailable: 503,
  /** the store can't write (disk full, read-only, connection lost): try again later */
  storage_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: FieldProblem[];
  /** sent as `Retry-After` (seconds): when the client may usefully try again (429, 503) */
  retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, details?: FieldProblem[]) {
    super(message);
    this.name = "AppError";
    this.code = code;
    if (details && details.length > 0) this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * An AppError without a stack, for refusals made thousands of times a second (429 overloaded):
 * capturing the stack was the costliest part of such an answer, and a 4xx is never logged.
 */
export function stackless(code: ErrorCode, message: string, retryAfterSeconds?: number): AppError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const e = new AppError(code, message);
    if (retryAfterSeconds !== undefined) e.retryAfterSeconds = retryAfterSeconds;
    return e;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export const notFound = (what = "resource"): AppError => new AppError("not_found", `${what} not found`);

export const invalid = (message: string, details?: FieldProblem[]): AppError =>
  new AppError("invalid_request", message, details);
