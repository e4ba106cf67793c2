import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { invalid } from "../../lib/errors.ts";
import { Filter, data, withErrors } from "../schemas.ts";

// GET /v1/users/me/error_summaries?ids=dc_..,p_..: which of these sources and workflows fail, how
// often, and their newest error, for a list or page to show at a glance (the dashboard's lists
// ask for the ids of the rows they show). Ids without errors, and ids that aren't the caller's,
// are simply not in the answer.

const MAX_IDS = 100;

const ErrorSummary = Type.Object({
  id: Type.String({ description: "the source (`dc_`) or workflow (`p_`)" }),
  count: Type.Integer({ description: "its $errors events kept (the stream keeps its newest events)" }),
  last_error: Type.Object({
    name: Type.String({ description: "the error's name (a workflow's: its code)" }),
    message: Type.String({ description: "its message, at most 500 characters" }),
    at_ms: Type.Integer({ description: "when it was put on $errors" }),
    step: Type.Union([Type.String(), Type.Null()], { description: "a workflow's failing step" }),
  }),
});

export function errorSummaryRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      "/users/me/error_summaries",
      {
        schema: {
          tags: ["events"],
          querystring: Type.Object({ ...Filter, ids: Type.String({ description: `comma-separated source and workflow ids, at most ${MAX_IDS}` }) }),
          response: withErrors({ 200: data(Type.Array(ErrorSummary)) }),
        },
      },
      async (req) => {
        const ids = [...new Set(req.query.ids.split(",").map((s) => s.trim()).filter(Boolean))];
        if (ids.length > MAX_IDS || ids.some((id) => id.length > 64)) {
          throw invalid(`ids takes at most ${MAX_IDS} ids`, [{ field: "ids", message: `must list at most ${MAX_IDS} ids of at most 64 characters` }]);
        }
        return { data: await core.events.errorSummaries(req.user, ids) };
      },
    );
  };
}
