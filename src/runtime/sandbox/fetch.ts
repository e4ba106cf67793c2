// fetch on behalf of sandboxed code. Every URL, redirects included, passes the address guard;
// redirects are followed here (never by undici) so that none skips it. The response body is
// capped (decoded bytes, so a compressed bomb stops at the cap too), and the caller's signal ends
// the request with the invocation. Made with undici's request(), not its fetch: on a step that
// awaits an API, fetch's own Request/Response objects were a sixth of the runner's CPU.
import type { IncomingHttpHeaders } from "node:http";
import { STATUS_CODES } from "node:http";
import { isUtf8 } from "node:buffer";
import { guardedRequest } from "../../lib/net/guarded-fetch.ts";
import { decodedBody, discard, readCapped } from "./fetch-body.ts";

export { MAX_RESPONSE_BYTES } from "./fetch-body.ts";
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

/** what enters the isolate: a body that is UTF-8 text as that text (isolate/fetch.js Response) */
export type IsolateResponse = Omit<SandboxResponse, "body"> & ({ body: Uint8Array; text?: undefined } | { body?: undefined; text: string });

/**
 * A response as the isolate takes it. Most bodies an API sends are UTF-8 text that code reads
 * with text() or json(): sent as text, the isolate gets a string instead of an ArrayBuffer (which
 * isolated-vm allocates outside the heap and then measures the heap for) and text() needs no
 * second call to decode it. Bytes that aren't valid UTF-8, or start with a byte order mark (which
 * text() drops and bytes() keeps), go as bytes; the text's bytes are made again only if code asks.
 */
export function forIsolate(res: SandboxResponse): IsolateResponse {
  const { body, ...rest } = res;
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  if (bom || !isUtf8(body)) return res;
  return { ...rest, text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8") };
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
  const defaults = DEFAULT_HEADERS.filter(([k]) => !given.has(k));
  // a range of a compressed body is a range of the compressed bytes: fetch then asks for none
  if (given.has("range")) return [...headers, ...defaults.map(([k, v]): [string, string] => (k === "accept-encoding" ? [k, "identity"] : [k, v]))];
  return [...headers, ...defaults];
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

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

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
      // the reason phrase the server sent, as fetch gives it (HTTP/2 has none: the standard one)
      statusText: res.statusText || (STATUS_CODES[res.statusCode] ?? ""),
      url: url.href,
      redirected: hop > 0,
      headers: headerPairs(res.headers),
      body: noBody ? discard(res.body) : await readCapped(decodedBody(res.body, first(res.headers["content-encoding"])), Number(first(res.headers["content-length"]))),
    };
  }
}
