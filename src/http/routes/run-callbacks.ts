import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import type { WaitAction } from "../../core/workflows/run-wait.ts";
import { jsonShapeProblem } from "../../lib/json-shape.ts";
import { MAX_KEYS, tooDeep, tooWide } from "../json-body.ts";
import { SESSION_COOKIE } from "../../core/dashboard-sessions.ts";

// The resume and cancel URLs a workflow step's $.flow.delay / suspend / rerun returns (workflows
// §3): /flow/{run_id}/{key}/resume and /cancel, any method, no API key (they go out in emails
// and chat messages; the key's token is what authorizes). The request that resumes a run becomes
// `steps.<name>.$resume_data` ({method, headers, body}): a JSON body parsed, any other as text.

const BODY_LIMIT = 512 * 1024;
// the body sits two levels down in the steps' results (steps.<name>.$resume_data.body)
const MAX_BODY_DEPTH = 60;

function isJson(type: string | undefined): boolean {
  const t = (type ?? "").split(";")[0]!.trim().toLowerCase();
  return t === "application/json" || t.endsWith("+json");
}

function bodyOf(req: FastifyRequest): unknown {
  const buf = req.body;
  if (!Buffer.isBuffer(buf) || buf.length === 0) return null;
  const text = buf.toString("utf8");
  if (!isJson(req.headers["content-type"])) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** the request's headers, without the dashboard's session cookie (a browser may send it along) */
function headersOf(req: FastifyRequest): Record<string, string | string[] | undefined> {
  const headers = { ...req.headers };
  if (headers.cookie?.includes(SESSION_COOKIE)) delete headers.cookie;
  return headers;
}

export function runCallbackRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (req, body, done) => {
      const buf = body as Buffer;
      if (isJson(req.headers["content-type"])) {
        const shape = jsonShapeProblem(buf.toString("utf8"), MAX_BODY_DEPTH, MAX_KEYS);
        if (shape) return done(shape.kind === "deep" ? tooDeep(MAX_BODY_DEPTH) : tooWide());
      }
      done(null, buf);
    });
    const handle = (action: WaitAction) => async (req: FastifyRequest, reply: FastifyReply) => {
      const { run_id, key } = req.params as { run_id: string; key: string };
      const request = { method: req.method, headers: headersOf(req), body: action === "resume" ? bodyOf(req) : null };
      const run = await core.runActions.callback(run_id, key, action, request);
      reply.header("cache-control", "no-store");
      return { data: { id: run.id, [action === "resume" ? "resumed" : "cancelled"]: true } };
    };
    // not in the OpenAPI document: they are links a run gives out, not the API
    const opts = { bodyLimit: BODY_LIMIT, schema: { hide: true } };
    app.all("/flow/:run_id/:key/resume", opts, handle("resume"));
    app.all("/flow/:run_id/:key/cancel", opts, handle("cancel"));
  };
}
