// What a workflow step hands $.send.http() and $.send.email() (docs/writing-workflows.md, "Sending"), checked and put in
// the one form the service sends: the step's commit stores it, the sender sends it later.
import type { QueuedSend } from "../protocol.ts";
import { checkResponseHeaders } from "./response-headers.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
/** an email subject line's limit (RFC 5322's line length) */
const MAX_SUBJECT = 998;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `json` is the config as the isolate stringified it; `maxBytes` bounds the body. */
export function queuedSend(kind: unknown, json: unknown, maxBytes: number): QueuedSend {
  if (typeof json !== "string") throw new TypeError(`$.send.${String(kind)}() takes an object that JSON can hold`);
  const config: unknown = JSON.parse(json);
  if (kind === "http") return httpSend(config, maxBytes);
  if (kind === "email") return emailSend(config, maxBytes);
  throw new TypeError(`unknown send "${String(kind)}"`);
}

function httpSend(c: unknown, maxBytes: number): QueuedSend {
  const what = "$.send.http()";
  if (!isObject(c)) throw new TypeError(`${what} takes {method?, url, headers?, params?, data?}`);
  const url = typeof c.url === "string" ? URL.parse(c.url) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new TypeError(`${what}: url must be an http:// or https:// URL`);
  // fetch refuses both on every try: said now, where the code can fix it
  if (url.username || url.password) throw new TypeError(`${what}: url can't carry a user name or password: send an Authorization header`);
  const method = c.method === undefined ? "POST" : typeof c.method === "string" ? c.method.toUpperCase() : "";
  if (!METHODS.includes(method)) throw new TypeError(`${what}: method must be one of ${METHODS.join(", ")}`);
  if (c.params !== undefined) {
    if (!isObject(c.params)) throw new TypeError(`${what}: params must be an object`);
    for (const [k, v] of Object.entries(c.params)) if (v !== undefined && v !== null) url.searchParams.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  if (c.headers !== undefined && !isObject(c.headers)) throw new TypeError(`${what}: headers must be an object`);
  const raw = Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : String(v)]));
  const headers = checkResponseHeaders(raw, what);
  if (Object.keys(headers).some((h) => h.toLowerCase() === "expect")) throw new TypeError(`${what}: the Expect header is not supported`);
  let body: string | undefined;
  if (c.data !== undefined && c.data !== null) {
    body = typeof c.data === "string" ? c.data : JSON.stringify(c.data);
    if (typeof c.data !== "string" && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
  }
  if (body !== undefined && Buffer.byteLength(body) > maxBytes) throw new RangeError(`${what}: data is over ${maxBytes} bytes`);
  const request = { method, url: url.href, headers, ...(body === undefined ? {} : { body }) };
  return { kind: "http", request: JSON.stringify(request) };
}

function emailSend(c: unknown, maxBytes: number): QueuedSend {
  const what = "$.send.email()";
  if (!isObject(c)) throw new TypeError(`${what} takes {subject, text?, html?}`);
  if (typeof c.subject !== "string" || c.subject.trim() === "") throw new TypeError(`${what}: subject must be a non-empty string`);
  if (c.subject.length > MAX_SUBJECT || /[\r\n]/.test(c.subject)) throw new TypeError(`${what}: subject must be one line of at most ${MAX_SUBJECT} characters`);
  for (const f of ["text", "html"] as const) if (c[f] !== undefined && typeof c[f] !== "string") throw new TypeError(`${what}: ${f} must be a string`);
  if (c.text === undefined && c.html === undefined) throw new TypeError(`${what}: give text, html or both`);
  const request = { subject: c.subject, ...(c.text === undefined ? {} : { text: c.text }), ...(c.html === undefined ? {} : { html: c.html }) };
  const out = JSON.stringify(request);
  if (Buffer.byteLength(out) > maxBytes) throw new RangeError(`${what}: the email is over ${maxBytes} bytes`);
  return { kind: "email", request: out };
}
