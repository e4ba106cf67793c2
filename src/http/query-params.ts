import type { FastifyRequest } from "fastify";

/**
 * Parameters that Pipedream's API takes in the query string (subscriptions, webhooks); a JSON
 * body with the same fields also works, and the query wins where both give one.
 */
export function queryOrBody(req: FastifyRequest): Record<string, unknown> {
  const body = typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? req.body : {};
  return { ...body, ...(req.query as object) };
}
