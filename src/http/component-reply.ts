import { validateHeaderName, validateHeaderValue } from "node:http";
import type { FastifyReply } from "fastify";
import { AppError } from "../lib/errors.ts";
import { isHopByHop } from "../lib/hop-by-hop.ts";
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

/** The headers that may be written: string (or number) values, one or several, valid, not hop-by-hop. */
export function componentHeaders(raw: unknown): Array<[string, string | string[]]> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [];
  const out: Array<[string, string | string[]]> = [];
  for (const [name, value] of Object.entries(raw)) {
    if (isHopByHop(name)) continue;
    const values = (Array.isArray(value) ? value : [value])
      .filter((v) => typeof v === "string" || typeof v === "number")
      .map(String)
      .filter((v) => validHeader(name, v));
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
