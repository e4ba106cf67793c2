import type { IncomingHttpHeaders } from "node:http";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { ACCEPTED } from "../../core/flow/ingress.ts";
import { MAX_JSON_DEPTH } from "../../lib/json-shape.ts";
import { sendComponentReply } from "../component-reply.ts";
import { answerEndpointPreflight, isPreflight } from "../cors.ts";
import { rawBodyParser, withoutSessionCookie } from "../raw-body.ts";

// HTTP sources' endpoints: /http/{key} with any method, subpath and query (docs/api.md, "HTTP endpoints"). The
// body is taken as raw bytes whatever its type (bodyRaw keeps them exact for signatures).

export const BODY_LIMIT = 512 * 1024;
// The body is event.body, one level down in the event the source gets: so the event, emitted as
// it is, still fits the bound on emits.
export const MAX_BODY_DEPTH = MAX_JSON_DEPTH - 1;

// type/subtype as RFC 9110 has it; Fastify refuses a request whose Content-Type isn't one with 415
const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(;|$)/;

/** The request's headers as the source gets them: as sent, never the dashboard's session cookie. */
function sourceHeaders(req: FastifyRequest, sentType: string | undefined): IncomingHttpHeaders {
  const headers = withoutSessionCookie(req.headers);
  return sentType === undefined ? headers : { ...headers, "content-type": sentType };
}

export function ingressRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    // An endpoint takes any request, also one whose Content-Type is garbage: Fastify
    // reads its body as bytes, and the source still sees the header as it was sent.
    const sentType = new WeakMap<FastifyRequest, string>();
    app.addHook("onRequest", (req, _reply, done) => {
      const type = req.headers["content-type"];
      if (type !== undefined && !MEDIA_TYPE.test(type)) {
        sentType.set(req, type);
        req.headers["content-type"] = "application/octet-stream";
      }
      done();
    });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, rawBodyParser(MAX_BODY_DEPTH, (req) => sentType.get(req) ?? req.headers["content-type"]));

    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      const { key } = req.params as { key: string; "*"?: string };
      // A browser's CORS preflight is not an event: answered here, never recorded, unless the
      // source's run answers its requests itself (customResponse), which then decides.
      if (isPreflight(req) && (await core.runtime.ingress.answersItself(key)) === false) return answerEndpointPreflight(req, reply);
      const rest = (req.params as { "*"?: string })["*"];
      const sent = sentType.get(req);
      const r = await core.runtime.ingress.receive(key, {
        method: req.method,
        path: "/" + (rest ?? ""),
        query: { ...(req.query as Record<string, unknown>) },
        headers: sourceHeaders(req, sent),
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        contentType: sent ?? req.headers["content-type"],
        url: `${req.protocol}://${req.host}${req.url}`,
        clientIp: req.ip,
        connection: req.raw.socket,
        gone: () => req.raw.socket.destroyed,
      });
      // the plain acceptance is readable from any origin (a customResponse run sets its own headers)
      if (r === ACCEPTED && req.headers.origin !== undefined) reply.header("access-control-allow-origin", "*");
      return sendComponentReply(reply, r);
    };
    const opts = { bodyLimit: BODY_LIMIT, schema: { hide: true } };
    app.all("/http/:key", opts, handle);
    app.all("/http/:key/*", opts, handle);
  };
}
