// fetch on behalf of sandboxed code. Every URL, redirects included, passes the address guard;
// redirects are followed here (never by undici) so that none skips it. The response body is
// capped (decoded bytes, so a compressed bomb stops at the cap too), and the caller's signal ends
// the request with the invocation. Made with undici's request(), not its fetch: on a step that
// awaits an API, fetch's own Request/Response objects were a sixth of the runner's CPU.
import type { IncomingHttpHeaders } from "node:http";
import { STATUS_CODES } from "node:http";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { guardedRequest } from "../../lib/net/guarded-fetch.ts";

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

/** what fetch sends unless the code sets it (undici's fetch sends these) */
const DEFAULT_HEADERS: [string, string][] = [
  ["accept", "*/*"],
  ["accept-language", "*"],
  ["sec-fetch-mode", "cors"],
  ["user-agent", "undici"],
  ["accept-encoding", "gzip, deflate"],
];

function withDefaults(headers: [string, string][]): [string, string][] {
  const given = new Set(headers.map(([k]) => k.toLowerCase()));
  return [...headers, ...DEFAULT_HEADERS.filter(([k]) => !given.has(k))];
}

/** the response's headers as fetch lists them: one pair per value of a repeated header */
function headerPairs(headers: IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const one of value) pairs.push([name, one]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

/** the body as fetch gives it: decoded when the server compressed it, as fetch does */
function decoded(body: Readable, encoding: string | undefined): Readable {
  const codings = (encoding ?? "").toLowerCase().split(",").map((c) => c.trim()).filter((c) => c !== "" && c !== "identity");
  if (codings.length !== 1) return body;
  const decoder = codings[0] === "gzip" || codings[0] === "x-gzip" ? createGunzip() : codings[0] === "deflate" ? createInflate() : codings[0] === "br" ? createBrotliDecompress() : undefined;
  if (!decoder) return body;
  return pipeline(body, decoder, () => {});
}

async function readCapped(body: Readable, declared: number): Promise<Uint8Array> {
  if (declared > MAX_RESPONSE_BYTES) {
    discard(body);
    throw new RangeError(`response body is larger than ${MAX_RESPONSE_BYTES} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > MAX_RESPONSE_BYTES) {
        discard(body);
        throw new RangeError(`response body is larger than ${MAX_RESPONSE_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new TypeError("terminated", { cause: e });
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** a body nobody reads: closed, and its abort error (undici emits one) kept from the process */
function discard(body: Readable): Uint8Array {
  body.on("error", () => {});
  body.destroy();
  return new Uint8Array(0);
}

export async function sandboxFetch(req: SandboxRequest, allow: readonly string[], signal: AbortSignal): Promise<SandboxResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new TypeError(`Invalid URL: ${req.url}`);
  }
  let { method, body } = req;
  let headers = withDefaults(req.headers);
  for (let hop = 0; ; hop++) {
    const res = await guardedRequest(url, { method, headers, body, signal }, allow);
    const location = first(res.headers.location);
    if (REDIRECTS.includes(res.statusCode) && location !== undefined) {
      discard(res.body);
      if (hop >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      // As browsers do: credentials don't follow a redirect to another origin.
      if (next.origin !== url.origin) headers = headers.filter(([k]) => !/^(authorization|cookie)$/i.test(k));
      url = next;
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        headers = headers.filter(([k]) => !/^content-(type|length|encoding|language|location)$/i.test(k));
      }
      continue;
    }
    const noBody = method === "HEAD" || res.statusCode === 204 || res.statusCode === 304;
    return {
      status: res.statusCode,
      statusText: STATUS_CODES[res.statusCode] ?? "",
      url: url.href,
      redirected: hop > 0,
      headers: headerPairs(res.headers),
      body: noBody ? discard(res.body) : await readCapped(decoded(res.body, first(res.headers["content-encoding"])), Number(first(res.headers["content-length"]))),
    };
  }
}
