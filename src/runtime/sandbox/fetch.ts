// fetch on behalf of sandboxed code. Every URL, redirects included, passes the address guard;
// redirects are followed here (never by undici) so that none skips it. The response body is
// capped, and the caller's signal ends the request with the invocation.
import type { Response } from "undici";
import { guardedFetch } from "../../lib/net/guarded-fetch.ts";

export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECTS = [301, 302, 303, 307, 308];

export interface SandboxRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body?: string | Uint8Array;
}

export interface SandboxResponse {
  status: number;
  statusText: string;
  url: string;
  redirected: boolean;
  headers: [string, string][];
  body: Uint8Array;
}

/** Checks the shape of what the isolate sent: it is untrusted input. */
export function parseSandboxRequest(raw: unknown): SandboxRequest {
  const r = raw as Partial<SandboxRequest> | null;
  if (typeof r?.url !== "string" || typeof r.method !== "string" || !Array.isArray(r.headers)) {
    throw new TypeError("malformed fetch request");
  }
  const headers = r.headers.filter(
    (h): h is [string, string] => Array.isArray(h) && typeof h[0] === "string" && typeof h[1] === "string",
  );
  const body = typeof r.body === "string" || r.body instanceof Uint8Array ? r.body : undefined;
  return { url: r.url, method: r.method, headers, body };
}

async function readCapped(res: Response): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length"));
  if (declared > MAX_RESPONSE_BYTES) {
    await res.body?.cancel();
    throw new RangeError(`response body is larger than ${MAX_RESPONSE_BYTES} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      total += chunk.byteLength;
      if (total > MAX_RESPONSE_BYTES) {
        await res.body.cancel().catch(() => {});
        throw new RangeError(`response body is larger than ${MAX_RESPONSE_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

export async function sandboxFetch(req: SandboxRequest, allow: readonly string[], signal: AbortSignal): Promise<SandboxResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new TypeError(`Invalid URL: ${req.url}`);
  }
  let { method, body } = req;
  let headers = req.headers;
  for (let hop = 0; ; hop++) {
    const res = await guardedFetch(url, { method, headers, body, redirect: "manual", signal }, allow);
    const location = res.headers.get("location");
    if (REDIRECTS.includes(res.status) && location !== null) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      // As browsers do: credentials don't follow a redirect to another origin.
      if (next.origin !== url.origin) headers = headers.filter(([k]) => !/^(authorization|cookie)$/i.test(k));
      url = next;
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        headers = headers.filter(([k]) => !/^content-(type|length|encoding|language|location)$/i.test(k));
      }
      continue;
    }
    return {
      status: res.status,
      statusText: res.statusText,
      url: url.href,
      redirected: hop > 0,
      headers: [...res.headers],
      body: await readCapped(res),
    };
  }
}
