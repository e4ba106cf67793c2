import { validateHeaderName, validateHeaderValue } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../lib/errors.ts";
import { isHopByHop } from "../lib/net/hop-by-hop.ts";
import { SESSION_COOKIE } from "../core/dashboard-sessions.ts";
import type { HttpResponse } from "../runtime/protocol.ts";

// The reply an HTTP source gave this.http.respond(). The runner checks it already; this is the
// second wall, so that no component can make the server write an invalid reply or fail with
// Node's own 500: headers that describe the connection belong to the server and are dropped
// (a component's Transfer-Encoding beside the server's Content-Length is a reply no client can
// read), so are names and values Node would refuse to write (CR/LF, controls), and a status
// outside 200-599 fails the request with the envelope.

function validHeader(name: string, value: string): boolean {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}

// An endpoint answers on the dashboard's origin, so a source's reply may not touch what the
// dashboard keeps there: its session cookie (set or shadowed: "cookie tossing" would sign the
// next person who opens the link in as someone else, or out) and its storage (Clear-Site-Data).
// A nameless cookie ("=tributary_session=x") is sent back as its bare value, so it counts too.
const ownCookie = (name: string, value: string) =>
  name.toLowerCase() === "set-cookie" && value.split(";", 1)[0].replace(/^[\s=]+/, "").split("=", 1)[0].trim() === SESSION_COOKIE;

/** The headers that may be written: string (or number) values, one or several, valid, not hop-by-hop. */
export function componentHeaders(raw: unknown): Array<[string, string | string[]]> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [];
  const out: Array<[string, string | string[]]> = [];
  for (const [name, value] of Object.entries(raw)) {
    if (isHopByHop(name) || name.toLowerCase() === "clear-site-data") continue;
    const values = (Array.isArray(value) ? value : [value])
      .filter((v) => typeof v === "string" || typeof v === "number")
      .map(String)
      .filter((v) => validHeader(name, v) && !ownCookie(name, v));
    if (values.length === 0) continue;
    out.push([name, values.length === 1 ? values[0] : values]);
  }
  return out;
}

function failed(message: string): AppError {
  return new AppError("source_failed", message);
}

export function sendComponentReply(reply: FastifyReply, r: HttpResponse): FastifyReply {
  const status = r.status;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
    throw failed("the source responded with a status outside 200-599");
  }
  let body: string | undefined;
  let type: string | undefined;
  if (typeof r.body === "string") {
    body = r.body;
    type = "text/plain; charset=utf-8";
  } else if (r.body !== undefined && r.body !== null) {
    try {
      body = JSON.stringify(r.body) as string | undefined;
    } catch {
      body = undefined;
    }
    if (body === undefined) throw failed("the source's response body could not be written as JSON");
    type = "application/json; charset=utf-8";
  }
  // nothing is set on the reply until everything above passed, so a failure is a clean envelope
  reply.status(status);
  for (const [name, value] of componentHeaders(r.headers)) reply.header(name, value);
  if (body === undefined) return reply.send();
  if (!reply.hasHeader("content-type")) reply.type(type!);
  return reply.send(body);
}

// Every answer to an endpoint request, whoever made it (a source's reply, the acceptance, an error
// envelope, a preflight, the early refusal), carries these. An endpoint is on the dashboard's
// origin: a source answering text/html with a script would otherwise run with it, read what the
// dashboard keeps there and call the API as whoever opened the link. `sandbox` gives the page an
// opaque origin (no scripts, no forms, no storage or cookies of this origin) and nosniff keeps a
// reply from being read as another type than it says.
export const ENDPOINT_HEADERS = { "content-security-policy": "sandbox", "x-content-type-options": "nosniff" } as const;

const isEndpoint = (req: FastifyRequest) => req.url.startsWith("/http/") || req.routeOptions.url?.startsWith("/http/") === true;

/**
 * onSend, on the root instance so that it also sees the 404s of paths no route matched. Ours are
 * set last and win over a source's own: its nosniff is replaced, its CSP kept as a second policy
 * (the browser enforces both, and sandbox flags only add up), so it can tighten, never loosen.
 */
export function sandboxEndpointReplies(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (isEndpoint(req)) {
    const theirs = reply.getHeader("content-security-policy");
    const csp = ENDPOINT_HEADERS["content-security-policy"];
    const kept = (Array.isArray(theirs) ? theirs : theirs === undefined ? [] : [String(theirs)]).filter((v) => v !== csp);
    reply.header("content-security-policy", kept.length === 0 ? csp : [csp, ...kept]);
    reply.header("x-content-type-options", ENDPOINT_HEADERS["x-content-type-options"]);
  }
  done(null, payload);
}
