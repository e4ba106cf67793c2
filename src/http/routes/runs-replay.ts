import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { RUN_STATUSES } from "../../core/workflows/runs.ts";
import { MAX_BULK_REPLAY } from "../../core/workflows/bulk-replay.ts";
import { IdParams, data, withErrors } from "../schemas.ts";
import { invalid } from "../../lib/errors.ts";

// Replaying many runs of a workflow at once (docs/api.md, "Runs"): those with a status (failed, by
// default) started in a time range, newest first, each as one replay would be.

const Body = Type.Object(
  {
    status: Type.Optional(Type.Enum([...RUN_STATUSES], { description: "the runs to replay: those with this status (default failed)" })),
    since: Type.Optional(Type.Integer({ minimum: 0, description: "started at or after (ms since the epoch)" })),
    until: Type.Optional(Type.Integer({ minimum: 0, description: "started at or before (ms since the epoch)" })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BULK_REPLAY, description: `at most this many, newest first (default and most ${MAX_BULK_REPLAY})` })),
  },
  { additionalProperties: false },
);

const Replayed = Type.Object({
  runs: Type.Array(Type.String(), { description: "the new runs (`r_...`), each replay_of one that matched" }),
  matched: Type.Integer({ description: "how many runs matched in all (more than were replayed past the limit)" }),
  stopped: Type.Optional(Type.String({ description: "why it stopped before the last that matched (the quota ran out)" })),
});

export function runsReplayRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      "/workflows/:id/runs/replay",
      { schema: { tags: ["runs"], params: IdParams, body: Type.Optional(Type.Union([Body, Type.Null()])), response: withErrors({ 202: data(Replayed) }, [409, 429]) } },
      async (req, reply) => {
        const body = req.body ?? {};
        if (body.since !== undefined && body.until !== undefined && body.since > body.until) {
          throw invalid("since is after until", [{ field: "since", message: "must not be after until" }]);
        }
        const out = await core.runs.bulkReplay(req.user, req.params.id, {
          status: body.status ?? "failed",
          ...(body.since === undefined ? {} : { since: body.since }),
          ...(body.until === undefined ? {} : { until: body.until }),
          limit: body.limit ?? MAX_BULK_REPLAY,
        });
        return reply.status(202).send({ data: out });
      },
    );
  };
}
