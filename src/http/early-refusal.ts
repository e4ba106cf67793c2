import type { IncomingMessage, ServerResponse } from "node:http";
import { envelope } from "./errors.ts";
import { ENDPOINT_HEADERS } from "./component-reply.ts";

// Past TRIBUTARY_MAX_BACKLOG, once no more requests may wait for room, HTTP sources' endpoints answer 429 overloaded (core/flow/backlog.ts).
// Ingress refuses such a request too, but only after Fastify has routed it, read its body and
// looked its endpoint up: at twice the capacity, refusals that cost that much keep the event loop
// as busy as acceptances did. Here the refusal is made before Fastify sees the request at all
// (connections.ts, serverWithFirstLook), for about what a bare node:http answer costs.

interface Counts {
  request(route: string, method: string, status: number, seconds: number): void;
}

export interface BacklogState {
  /** whether a request would be refused now (a stale count says no: Ingress then refreshes it) */
  readonly full: boolean;
  readonly refusal: string;
}

/**
 * Answers an HTTP source's endpoint request (not a CORS preflight) with 429 while the backlog is
 * at its bound; returns false for every other request. `metrics` counts the refusals with the
 * other answers (their onResponse hook never sees these).
 */
export function refuseEarly(backlog: BacklogState, metrics?: Counts) {
  let body = "";
  let headers: Record<string, string | number> = {};
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!req.url?.startsWith("/http/") || req.method === "OPTIONS" || !backlog.full) return false;
    if (!body) {
      body = JSON.stringify(envelope("overloaded", backlog.refusal));
      headers = { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), "retry-after": "1", ...ENDPOINT_HEADERS };
    }
    res.writeHead(429, headers);
    res.end(body);
    metrics?.request("/http/:key", req.method ?? "GET", 429, 0);
    return true;
  };
}
