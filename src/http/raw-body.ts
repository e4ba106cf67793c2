import type { IncomingHttpHeaders } from "node:http";
import type { FastifyRequest } from "fastify";
import { jsonShapeProblem } from "../lib/json-shape.ts";
import { MAX_KEYS, tooDeep, tooWide } from "./json-body.ts";
import { SESSION_COOKIE } from "../core/dashboard-sessions.ts";

// Routes that take any request body as it came (a source's endpoint, a run's resume URL): the
// body is kept as bytes whatever its type, and a JSON one is bounded before anything parses it.

/** whether a Content-Type is one whose body is read as JSON */
export function isJsonType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

type Done = (err: Error | null, body?: unknown) => void;

/**
 * A content-type parser for "*" (parseAs: "buffer") that keeps the bytes. A JSON body deeper than
 * `maxDepth` would overflow whatever recurses over it later (IPC, clones, stringify), and one with
 * an object of absurdly many members costs more to parse than to send: both are refused here.
 * `typeOf`: the request's Content-Type as sent (a route may have replaced a malformed one).
 */
export function rawBodyParser(maxDepth: number, typeOf: (req: FastifyRequest) => string | undefined = (req) => req.headers["content-type"]) {
  return (req: FastifyRequest, body: string | Buffer, done: Done): void => {
    const buf = body as Buffer;
    if (buf.length > maxDepth && isJsonType(typeOf(req))) {
      const shape = jsonShapeProblem(buf.toString("utf8"), maxDepth, MAX_KEYS);
      if (shape) return done(shape.kind === "deep" ? tooDeep(maxDepth) : tooWide());
    }
    done(null, buf);
  };
}

/**
 * The headers without the dashboard's session cookie: these routes are on the dashboard's
 * origin, so a browser that signed in there sends it along (SameSite doesn't stop a link followed
 * from the dashboard or a typed URL); it is never the component's or the run's.
 */
export function withoutSessionCookie(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const cookie = headers.cookie;
  if (!cookie?.includes(SESSION_COOKIE)) return headers;
  const out = { ...headers };
  const others = cookie.split(";").filter((pair) => pair.split("=", 1)[0]!.trim() !== SESSION_COOKIE);
  if (others.join("").trim() === "") delete out.cookie;
  else out.cookie = others.join(";").trim();
  return out;
}
