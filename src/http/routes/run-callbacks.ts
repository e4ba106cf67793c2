import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import type { WaitAction } from "../../core/workflows/run-wait.ts";
import { isJsonType, rawBodyParser, withoutSessionCookie } from "../raw-body.ts";

// The resume and cancel URLs a workflow step's $.flow.delay / suspend / rerun returns
// (docs/api.md, "Waiting runs"): /flow/{run_id}/{key}/resume and /cancel, any method, no API key (they go out in emails
// and chat messages; the key's token is what authorizes). The request that resumes a run becomes
// `steps.<name>.$resume_data` ({method, headers, body}): a JSON body parsed, any other as text.

export const BODY_LIMIT = 512 * 1024;
// the body sits two levels down in the steps' results (steps.<name>.$resume_data.body)
export const MAX_BODY_DEPTH = 60;

function bodyOf(req: FastifyRequest): unknown {
  const buf = req.body;
  if (!Buffer.isBuffer(buf) || buf.length === 0) return null;
  const text = buf.toString("utf8");
  if (!isJsonType(req.headers["content-type"])) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function runCallbackRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, rawBodyParser(MAX_BODY_DEPTH));
    const handle = (action: WaitAction) => async (req: FastifyRequest, reply: FastifyReply) => {
      const { run_id, key } = req.params as { run_id: string; key: string };
      const request = { method: req.method, headers: withoutSessionCookie(req.headers), body: action === "resume" ? bodyOf(req) : null };
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
