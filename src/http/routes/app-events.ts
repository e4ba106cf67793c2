import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { rawBodyParser, withoutSessionCookie } from "../raw-body.ts";
import { BODY_LIMIT, MAX_BODY_DEPTH } from "./ingress.ts";

// Accounts' app-events URLs, /app-events/{key} (docs/connecting-accounts.md, "App events"): where an
// app (Slack's Event Subscriptions, a Shopify webhook) posts its events, with no API key: the key's
// 128 random bits, and the app's signature when the account holds its signing secret, authorize.
// The body is kept as bytes (signatures are over them), with the same bounds as an endpoint's.

export function appEventRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, rawBodyParser(MAX_BODY_DEPTH));
    const handle = async (req: FastifyRequest) => {
      const { key } = req.params as { key: string };
      return core.appHooks.receive(key, {
        method: req.method,
        path: "/",
        query: { ...(req.query as Record<string, unknown>) },
        headers: withoutSessionCookie(req.headers),
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        contentType: req.headers["content-type"],
        url: `${req.protocol}://${req.host}${req.url}`,
        clientIp: req.ip,
      });
    };
    app.post("/app-events/:key", { bodyLimit: BODY_LIMIT, schema: { hide: true } }, async (req, reply) => {
      const r = await handle(req);
      reply.header("cache-control", "no-store");
      return reply.code(r.status).headers(r.headers).send(r.body);
    });
  };
}
