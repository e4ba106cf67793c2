import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { EVENT_PREVIEW_BYTES, RUN_STARTS, RUN_STATUSES, STEP_VALUE_PREVIEW_BYTES, parseExpand } from "../../core/workflows/runs.ts";
import { Filter, IdParams, Paging, data, page, withErrors } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";
import { BODY_LIMIT as RESUME_BODY_LIMIT, MAX_BODY_DEPTH as RESUME_MAX_DEPTH } from "./run-callbacks.ts";
import { jsonTooDeep } from "../../lib/json-shape.ts";
import { invalid } from "../../lib/errors.ts";

// Workflow runs (docs/api.md, "Runs"): a workflow's runs, one run with its steps, replay and cancel.
// Another user's run or workflow is a 404, like a missing one.

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const truncated = (bytes: number, expand: string) =>
  `any JSON; over ${bytes} bytes of JSON (unless expand=${expand}): {"$truncated": true, "bytes": <its JSON's size>, "preview": "<its JSON's first ${bytes} characters>"}`;

const RunStep = Type.Object({
  name: Type.String(),
  id: Type.String({ description: "the step's cell id, `c_...`, of the run's deployment" }),
  status: Type.Enum(["pending", "running", "suspended", "succeeded", "failed", "skipped"]),
  started_at_ms: nullable(Type.Integer()),
  ended_at_ms: nullable(Type.Integer()),
  return_value: Type.Unknown({ description: `${truncated(STEP_VALUE_PREVIEW_BYTES, "steps")}; null: none` }),
  exports: Type.Unknown({ description: `what the step exported ($.export), an object; ${truncated(STEP_VALUE_PREVIEW_BYTES, "steps")}` }),
  logs: Type.Array(Type.Unknown({ description: "{level, msg, ts}" })),
  error: Type.Optional(Type.Unknown({ description: "{name, message, stack}: why the step failed" })),
  attempts: Type.Integer(),
  sends: Type.Array(
    Type.Object({
      id: Type.String({ description: "`snd_...`" }),
      kind: Type.Enum(["http", "email"]),
      status: Type.Enum(["pending", "sent", "failed"]),
      attempts: Type.Integer({ description: "tries so far" }),
      method: Type.Optional(Type.String({ description: "http: the request's method" })),
      url: Type.Optional(Type.String({ description: "http: the request's URL" })),
      subject: Type.Optional(Type.String({ description: "email: its subject" })),
      last_status: nullable(Type.Integer({ description: "http: the status of the last try" })),
      last_error: nullable(Type.String({ description: "why the last try failed" })),
      created_at_ms: Type.Integer(),
      done_at_ms: nullable(Type.Integer({ description: "when it was sent, or given up" })),
      next_at_ms: nullable(Type.Integer({ description: "a pending send's next try" })),
    }),
    { description: "what the step queued with $.send.http / $.send.email, sent once it committed" },
  ),
});

export const Run = Type.Object({
  id: Type.String({ description: "`r_...`" }),
  workflow_id: Type.String(),
  status: Type.Enum([...RUN_STATUSES]),
  trigger_event: Type.Unknown({ description: truncated(EVENT_PREVIEW_BYTES, "event") }),
  deployment_id: Type.String({ description: "the deployment (`d_...`) whose steps the run runs: the one it started on, to its end" }),
  deployment_current: nullable(Type.Boolean({ description: "whether deployment_id is the workflow's current deployment" })),
  started_at_ms: Type.Integer(),
  ended_at_ms: nullable(Type.Integer()),
  summary: nullable(Type.String()),
  started_by: Type.Enum([...RUN_STARTS], {
    description: "how the run started: a request to the workflow's endpoint, Run now (the API, CLI or dashboard), a replay, a retry, an event delivered to it, or its timer",
  }),
  response: nullable(Type.Object({ status: Type.Integer() }, { description: "the HTTP reply the request that started the run got (only a run started_by request has one)" })),
  replay_of: nullable(Type.String({ description: "the run this one replays" })),
  retry_of: nullable(Type.String({ description: "the run this one retries from one of its steps (its earlier steps' results are that run's)" })),
  waiting: nullable(
    Type.Object(
      {
        for: Type.Enum(["delay", "suspend", "rerun", "retry", "queued"], { description: "$.flow.delay / suspend / rerun, a retry's backoff, or room under concurrency or rate" }),
        step_index: Type.Integer({ description: "the step (0-based) that waits or made the run wait" }),
        until_ms: nullable(Type.Integer({ description: "when it goes on by itself (a suspension's timeout fails it); null: only when resumed or cancelled" })),
      },
      { description: "what a live run waits for; null when it isn't waiting" },
    ),
  ),
  steps: Type.Optional(Type.Array(RunStep, { description: "in order; absent in lists" })),
});

const Replayed = Type.Object({ accepted: Type.Boolean(), id: Type.String({ description: "the new run (`r_...`), replay_of the one replayed" }) });

const Expand = { expand: Type.Optional(Type.String({ description: "`event` (the whole trigger event), `steps` (whole step values), or both: `event,steps`" })) };
const RunParams = Type.Object({ run_id: Type.String() });

export function runRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const runs = core.runs;
    const tags = ["runs"];

    app.get(
      "/workflows/:id/runs",
      {
        schema: {
          tags,
          params: IdParams,
          querystring: Type.Object({ ...Filter, ...Paging, ...Expand, status: Type.Optional(Type.Enum([...RUN_STATUSES])) }),
          response: withErrors({ 200: page(Run) }),
        },
      },
      async (req) => {
        const expand = parseExpand(req.query.expand);
        const { items, total, currentDeployment } = await runs.list(req.user, req.params.id, pageRequest(req.query), req.query.status);
        return pageEnvelope(items, total, (r) => runs.view(r, undefined, expand, currentDeployment));
      },
    );

    app.get(
      "/runs/:run_id",
      { schema: { tags, params: RunParams, querystring: Type.Object({ ...Filter, ...Expand }), response: withErrors({ 200: data(Run) }) } },
      async (req) => {
        const expand = parseExpand(req.query.expand);
        const run = await runs.get(req.user, req.params.run_id);
        return { data: runs.view(run, await runs.steps(run), expand) };
      },
    );

    app.post(
      "/runs/:run_id/replay",
      {
        schema: {
          tags,
          params: RunParams,
          body: Type.Optional(
            Type.Union([
              Type.Object(
                {
                  deployment: Type.Optional(
                    Type.Enum(["current", "original"], { description: "run the workflow's current deployment (the default: the fix-and-replay case), or the one the replayed run ran" }),
                  ),
                },
                { additionalProperties: false },
              ),
              Type.Null(),
            ]),
          ),
          response: withErrors({ 202: data(Replayed) }, [409, 429]),
        },
      },
      async (req, reply) => {
        const id = await runs.replay(req.user, req.params.run_id, req.body?.deployment ?? "current");
        return reply.status(202).send({ data: { accepted: true, id } });
      },
    );

    app.post(
      "/runs/:run_id/retry",
      {
        schema: {
          tags,
          params: RunParams,
          body: Type.Optional(
            Type.Union([
              Type.Object(
                {
                  from_step: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the step to run again from, by name (default: the step that failed)" })),
                  deployment: Type.Optional(Type.Enum(["current", "original"], { description: "the workflow's current deployment (the default: a fix), or the one the run ran" })),
                },
                { additionalProperties: false },
              ),
              Type.Null(),
            ]),
          ),
          response: withErrors({ 202: data(Replayed) }, [409, 429]),
        },
      },
      async (req, reply) => {
        const body = req.body ?? {};
        const id = await runs.retry(req.user, req.params.run_id, { ...(body.from_step === undefined ? {} : { from: body.from_step }), deployment: body.deployment ?? "current" });
        return reply.status(202).send({ data: { accepted: true, id } });
      },
    );

    app.post(
      "/runs/:run_id/resume",
      {
        // what a resume URL takes: the data sits deep in the steps' results ($resume_data.body)
        bodyLimit: RESUME_BODY_LIMIT,
        schema: {
          tags,
          params: RunParams,
          body: Type.Optional(
            Type.Union([
              Type.Object({ data: Type.Optional(Type.Unknown({ description: "the resume data's body: steps.<name>.$resume_data.body" })) }, { additionalProperties: false }),
              Type.Null(),
            ]),
          ),
          response: withErrors({ 200: data(Run) }, [409]),
        },
      },
      async (req) => {
        if (req.body?.data !== undefined && jsonTooDeep(JSON.stringify(req.body.data), RESUME_MAX_DEPTH)) {
          throw invalid(`data is nested deeper than ${RESUME_MAX_DEPTH} levels`, [{ field: "data", message: `must be nested at most ${RESUME_MAX_DEPTH} levels deep` }]);
        }
        const run = await runs.resume(req.user, req.params.run_id, req.body?.data);
        return { data: runs.view(run, await runs.steps(run), new Set()) };
      },
    );

    app.post(
      "/runs/:run_id/cancel",
      { schema: { tags, params: RunParams, response: withErrors({ 200: data(Run) }, [409]) } },
      async (req) => {
        const run = await runs.cancel(req.user, req.params.run_id);
        return { data: runs.view(run, await runs.steps(run), new Set()) };
      },
    );
  };
}
