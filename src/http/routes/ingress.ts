import type { IncomingHttpHeaders } from "node:http";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { ACCEPTED } from "../../core/flow/ingress.ts";
import { jsonShapeProblem, MAX_JSON_DEPTH } from "../../lib/json-shape.ts";
import { sendComponentReply } from "../component-reply.ts";
import { MAX_KEYS, tooDeep, tooWide } from "../json-body.ts";
import { answerEndpointPreflight, isPreflight } from "../cors.ts";
import { SESSION_COOKIE } from "../../core/dashboard-sessions.ts";

// HTTP sources' endpoints: /http/{key} with any method, subpath and query (decisions §6). The
// body is taken as raw bytes whatever its type (bodyRaw keeps them exact for signatures).

const BODY_LIMIT = 512 * 1024;
// The body is event.body, one level down in the event the source gets: so the event, emitted as
// it is, still fits the bound on emits.
const MAX_BODY_DEPTH = MAX_JSON_DEPTH - 1;

/** The content types the source sees parsed as JSON (core's httpEvent), so the ones to bound here. */
function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

// type/subtype as RFC 9110 has it; Fastify refuses a request whose Content-Type isn't one with 415
const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(;|$)/;

/**
 * The request's headers as the source gets them. An endpoint is on the dashboard's origin, so a
 * browser that signed in there sends the dashboard's session cookie along (SameSite doesn't stop
 * a link followed from the dashboard or a typed URL): it is the dashboard's, never the source's.
 */
function sourceHeaders(req: FastifyRequest, sentType: string | undefined): IncomingHttpHeaders {
  const cookie = req.headers.cookie;
  if (sentType === undefined && !cookie?.includes(SESSION_COOKIE)) return req.headers;
  const headers = { ...req.headers, ...(sentType === undefined ? {} : { "content-type": sentType }) };
  if (cookie?.includes(SESSION_COOKIE)) {
    const others = cookie.split(";").filter((pair) => pair.split("=", 1)[0].trim() !== SESSION_COOKIE);
    if (others.join("").trim() === "") delete headers.cookie;
    else headers.cookie = others.join(";").trim();
  }
  return headers;
}

export function ingressRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    // An endpoint takes any request (decisions §6), also one whose Content-Type is garbage: Fastify
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
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (req, body, done) => {
      // A JSON body deeper than the bound would overflow whatever recurses over the parsed event
      // later (IPC, clones, stringify), and one with an object of absurdly many members costs
      // more to parse than to send; both are refused here, before they are parsed or queued.
      const buf = body as Buffer;
      const type = sentType.get(req) ?? req.headers["content-type"];
      if (buf.length > MAX_BODY_DEPTH && isJson(type)) {
        const shape = jsonShapeProblem(buf.toString("utf8"), MAX_BODY_DEPTH, MAX_KEYS);
        if (shape) return done(shape.kind === "deep" ? tooDeep(MAX_BODY_DEPTH) : tooWide());
      }
      done(null, buf);
    });

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
