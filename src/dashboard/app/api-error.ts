// The API answers every error with one envelope: {"error": {"code", "message", "details"?}}.
// The dashboard shows its message next to the form or action that failed.

interface Envelope {
  error?: { code?: string; message?: string; details?: { field: string; message: string }[] };
}

/** The message to show for an openapi-fetch `error` (the parsed body) or a thrown error. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const env = error as Envelope | undefined;
  const e = env?.error;
  if (e?.message) {
    const details = e.details?.map((d) => `${d.field}: ${d.message}`).join("; ");
    return details ? `${e.message} (${details})` : e.message;
  }
  return "the request failed";
}

/** Whether an API error is the 404 envelope (an id that is not there or not the caller's). */
export const isNotFound = (error: unknown): boolean => (error as Envelope | undefined)?.error?.code === "not_found";

/** Data of an openapi-fetch answer, or throws its error message (for useQuery). */
export function dataOf<T>(res: { data?: T; error?: unknown }): T {
  if (res.error !== undefined || res.data === undefined) throw new ApiError(res.error);
  return res.data;
}

export class ApiError extends Error {
  readonly body: unknown;
  constructor(body: unknown) {
    super(messageOf(body));
    this.body = body;
  }
}

/** The envelope's field problems on configured_props.<name>, by prop name. */
export function propErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of (error as Envelope | undefined)?.error?.details ?? []) {
    const m = /^configured_props\.([^.]+)/.exec(d.field);
    if (m) out[m[1]] ??= d.message;
  }
  return out;
}
