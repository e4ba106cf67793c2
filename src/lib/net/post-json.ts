import { guardedFetch } from "./guarded-fetch.ts";

export interface PostOptions {
  timeoutMs: number;
  allow: readonly string[];
  headers: Record<string, string>;
}

/** What became of one POST: `ok` for a 2xx, else why not (for the log). */
export interface PostOutcome {
  ok: boolean;
  status?: number;
  reason?: string;
}

/**
 * POSTs JSON text to a URL that passes the private-address guard, with a deadline. Redirects are
 * not followed (a webhook that moved answers 3xx, which counts as a failure), so the guard's
 * verdict covers the only address contacted. Never throws.
 */
export async function postJson(rawUrl: string, body: string, opts: PostOptions): Promise<PostOutcome> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const url = new URL(rawUrl);
    const res = await guardedFetch(
      url,
      { method: "POST", body, headers: { "content-type": "application/json", ...opts.headers }, redirect: "manual", signal },
      opts.allow,
    );
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    return { ok: false, status: res.status, reason: `HTTP ${res.status}` };
  } catch (err) {
    const reason = signal.aborted ? `timed out after ${opts.timeoutMs} ms` : describe(err);
    return { ok: false, reason };
  }
}

/** fetch's own "fetch failed" says nothing: the cause (e.g. connect ECONNREFUSED 127.0.0.1:9) is added. */
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
  return cause && !message.includes(cause) ? `${message}: ${cause}` : message;
}
