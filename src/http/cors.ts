import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

// CORS, our own small hook rather than @fastify/cors: the rules differ by path family. The API
// (/v1/*) and the live streams (/sources/{id}/sse, /workflows/{id}/sse) answer the origins in
// TRIBUTARY_CORS_ORIGINS; HTTP source endpoints (/http/*) answer any origin, and there a preflight
// is answered by the route itself unless the source's run decides (customResponse), which needs
// the source. @fastify/cors would add an OPTIONS catch-all route for every path and still need
// a delegator for the families; these few lines say the rules directly.

const ALLOW_METHODS = "GET, POST, PUT, DELETE";
const ALLOW_HEADERS = "Authorization, Content-Type, Last-Event-ID";
const MAX_AGE_SECONDS = "600";
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[!-~]+$|^null$/i;

/** The paths TRIBUTARY_CORS_ORIGINS applies to: the API and the SSE streams. */
export function corsApplies(url: string): boolean {
  if (url.startsWith("/v1/") || url === "/v1" || url.startsWith("/v1?")) return true;
  return /^\/(?:sources|workflows)\/[^/?]+\/sse\/?(?:\?|$)/.test(url);
}

export function isPreflight(req: FastifyRequest): boolean {
  return req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
}

/**
 * Adds the headers to every response under the API and SSE paths (errors, 404s and hijacked SSE
 * streams too: they go on the raw response, which Node merges into whatever writes the head), and
 * answers their preflights 204. `origins`: ["*"] for any; none installs nothing.
 */
export function installCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const any = origins.includes("*");
  const listed = new Set(origins);
  app.addHook("onRequest", (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!corsApplies(req.url)) return done();
    const origin = req.headers.origin;
    const allowed = any ? "*" : origin !== undefined && listed.has(origin.toLowerCase()) ? origin : undefined;
    reply.raw.setHeader("vary", "Origin");
    if (allowed !== undefined) reply.raw.setHeader("access-control-allow-origin", allowed);
    if (!isPreflight(req)) return done();
    // answered here, before auth (a preflight carries no credentials) and whatever the route
    if (allowed !== undefined) {
      reply.header("access-control-allow-methods", ALLOW_METHODS);
      reply.header("access-control-allow-headers", ALLOW_HEADERS);
      reply.header("access-control-max-age", MAX_AGE_SECONDS);
    }
    reply.header("cache-control", "no-store");
    reply.code(204).send();
  });
}

/**
 * A preflight to an HTTP source endpoint: any origin, the method and headers it asks for. The
 * endpoint is public, and the browser's real request is what the source sees.
 */
export function answerEndpointPreflight(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const origin = req.headers.origin;
  const method = String(req.headers["access-control-request-method"]);
  const headers = req.headers["access-control-request-headers"];
  // echoed only when they are what they claim to be (a token, a list of tokens)
  reply.header("access-control-allow-origin", origin !== undefined && ORIGIN.test(origin) ? origin : "*");
  reply.header("vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
  reply.header("access-control-allow-methods", TOKEN.test(method) ? method : ALLOW_METHODS);
  if (typeof headers === "string" && TOKEN_LIST.test(headers)) reply.header("access-control-allow-headers", headers);
  reply.header("access-control-max-age", MAX_AGE_SECONDS);
  return reply.code(204).send();
}
