import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import type { HttpResponse } from "../../runtime/protocol.ts";

// HTTP sources' endpoints: /http/{key} with any method, subpath and query (decisions §6). The
// body is taken as raw bytes whatever its type (bodyRaw keeps them exact for signatures).

const BODY_LIMIT = 512 * 1024;

function send(reply: FastifyReply, r: HttpResponse): FastifyReply {
  reply.status(r.status);
  for (const [name, value] of Object.entries(r.headers ?? {})) reply.header(name, value);
  if (r.body === undefined || r.body === null) return reply.send();
  if (typeof r.body === "string") {
    if (!reply.hasHeader("content-type")) reply.type("text/plain; charset=utf-8");
    return reply.send(r.body);
  }
  if (!reply.hasHeader("content-type")) reply.type("application/json; charset=utf-8");
  return reply.send(JSON.stringify(r.body));
}

export function ingressRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));

    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      const { key } = req.params as { key: string; "*"?: string };
      const rest = (req.params as { "*"?: string })["*"];
      const r = await core.runtime.ingress.receive(key, {
        method: req.method,
        path: "/" + (rest ?? ""),
        query: { ...(req.query as Record<string, unknown>) },
        headers: req.headers,
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        contentType: req.headers["content-type"],
        url: `${req.protocol}://${req.host}${req.url}`,
        clientIp: req.ip,
      });
      return send(reply, r);
    };
    const opts = { bodyLimit: BODY_LIMIT, schema: { hide: true } };
    app.all("/http/:key", opts, handle);
    app.all("/http/:key/*", opts, handle);
  };
}
