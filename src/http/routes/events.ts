import { Type, type FastifyPluginAsyncTypebox, type Static } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { invalid } from "../../lib/errors.ts";
import { Accepted, EventQuery, EventSummary, IdParams, data, page, withErrors } from "../schemas.ts";

/**
 * GET .../event_summaries of a source or workflow: `stream` fixes the stream (the workflow
 * `$errors` endpoint), else `event_name` picks it.
 */
export function eventSummaries(core: Core, kind: "source" | "workflow", stream?: string) {
  return {
    schema: { tags: ["events"], params: IdParams, querystring: EventQuery, response: withErrors({ 200: page(EventSummary) }) },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const { id } = req.params as Static<typeof IdParams>;
      const q = req.query as Static<typeof EventQuery>;
      const json = await core.events.page(req.user, kind, id, {
        limit: q.limit ?? 10,
        after: q.after,
        before: q.before,
        eventName: stream ?? q.event_name,
        expand: q.expand,
      });
      // rendered already (payloads are stored as JSON); the schema above documents the shape
      return reply.type("application/json; charset=utf-8").send(json);
    },
  };
}

/** What POST .../run takes: `event`, or for an HTTP workflow `http` (run-now-http.ts). */
export interface RunNowBody {
  event?: unknown;
  http?: unknown;
}

/** A workflow's Run now answers with the id of the run it started (a source's has no runs). */
export const RunStarted = Type.Object({ accepted: Type.Boolean(), run_id: Type.String({ description: "the run started (`r_...`): GET /v1/runs/{run_id}" }) });

/**
 * POST .../run of a source or workflow: `{"event": ...}` (optional) is accepted durably and run
 * in the background; 202 {"data": {"accepted": true, ...what `run` gives}} (a workflow's run_id).
 */
export function runNow(
  tag: string,
  run: (user: FastifyRequest["user"], id: string, body: RunNowBody | undefined, req: FastifyRequest) => Promise<void | { run_id: string }>,
  answer: typeof Accepted | typeof RunStarted = Accepted,
) {
  return {
    schema: {
      tags: [tag],
      params: IdParams,
      // the body is optional (`curl -X POST .../run` sends none), so it is checked here
      response: withErrors({ 202: data(answer) }, [429]),
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const body = req.body as RunNowBody | undefined;
      if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) {
        throw invalid("the body must be a JSON object like {\"event\": ...}", [{ field: "body", message: "must be an object" }]);
      }
      const started = await run(req.user, (req.params as Static<typeof IdParams>).id, body, req);
      return reply.status(202).send({ data: { accepted: true, ...started } });
    },
  };
}

export function eventRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get("/sources/:id/event_summaries", eventSummaries(core, "source"));

    app.delete(
      "/sources/:id/events",
      {
        schema: {
          tags: ["events"],
          params: IdParams,
          querystring: Type.Object({ start_id: Type.Optional(Type.String()), end_id: Type.Optional(Type.String()) }),
          response: withErrors({ 202: data(Accepted) }),
        },
      },
      async (req, reply) => {
        await core.events.delete(req.user, req.params.id, req.query.start_id, req.query.end_id);
        return reply.status(202).send({ data: { accepted: true } });
      },
    );

    app.post("/sources/:id/run", runNow("sources", (user, id, body) => core.sources.runNow(user, id, body?.event)));
  };
}
