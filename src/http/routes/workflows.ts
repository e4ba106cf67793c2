import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import type { WorkflowInput } from "../../core/workflows/workflow-input.ts";
import { Deleted, Filter, IdParams, Paging, Workflow, WorkflowBody, data, page, withErrors } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";
import { invalid } from "../../lib/errors.ts";
import type { FastifyRequest } from "fastify";
import { eventSummaries, runNow, RunStarted, type RunNowBody } from "./events.ts";
import { checkHttpForm, runNowEvent } from "./run-now-http.ts";

// Workflows (docs/api.md, "Workflows"), their deployments, and their two event endpoints,
// event_summaries and $errors/event_summaries, as Pipedream's API has them.

const Deployment = Type.Object({
  id: Type.String({ description: "`d_...`" }),
  workflow_id: Type.String(),
  created_at: Type.Integer({ description: "when it was deployed (seconds)" }),
  current: Type.Boolean({ description: "whether it is the workflow's current deployment" }),
  steps: Workflow.properties.steps,
  trigger: Workflow.properties.trigger,
  settings: Workflow.properties.settings,
});
const DeploymentParams = Type.Object({ id: Type.String(), deployment_id: Type.String() });
export function workflowRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const workflows = core.workflows;
    const view = (w: Parameters<typeof workflows.view>[0]) => workflows.view(w);

    app.get(
      "/users/me/workflows",
      { schema: { tags: ["workflows"], querystring: Type.Object({ ...Filter, ...Paging }), response: withErrors({ 200: page(Workflow) }) } },
      async (req) => {
        const { items, total } = await workflows.list(req.user, pageRequest(req.query));
        return pageEnvelope(items, total, view);
      },
    );

    app.post(
      "/workflows",
      { schema: { tags: ["workflows"], body: WorkflowBody, response: withErrors({ 200: data(Workflow) }, [413, 422]) } },
      async (req) => ({ data: view(await workflows.create(req.user, req.body as WorkflowInput)) }),
    );

    app.get(
      "/workflows/:id",
      { schema: { tags: ["workflows"], params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(Workflow) }) } },
      async (req) => ({ data: view(await workflows.get(req.user, req.params.id)) }),
    );

    app.get(
      "/workflows/:id/deployments/:deployment_id",
      { schema: { tags: ["workflows"], params: DeploymentParams, response: withErrors({ 200: data(Deployment) }) } },
      async (req) => ({ data: await workflows.deployment(req.user, req.params.id, req.params.deployment_id) }),
    );

    app.put(
      "/workflows/:id",
      { schema: { tags: ["workflows"], params: IdParams, body: WorkflowBody, response: withErrors({ 200: data(Workflow) }, [413, 422]) } },
      async (req) => ({ data: view(await workflows.update(req.user, req.params.id, req.body as WorkflowInput)) }),
    );

    app.delete(
      "/workflows/:id",
      { schema: { tags: ["workflows"], params: IdParams, response: withErrors({ 200: data(Deleted) }) } },
      async (req) => {
        await workflows.delete(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );

    /** the run's event: `event` as given, or the request `http` describes (run-now-http.ts) */
    async function eventToRun(user: FastifyRequest["user"], id: string, body: RunNowBody | undefined, req: FastifyRequest): Promise<unknown> {
      if (body?.http === undefined) return body?.event;
      // another user's workflow is a 404 before anything about the body is said
      const trigger = view(await workflows.get(user, id)).trigger as { type: string; endpoint_url?: string };
      if (body.event !== undefined) throw invalid("give event or http, not both", [{ field: "http", message: "can't be given with event" }]);
      if (trigger.type !== "http" || !trigger.endpoint_url) {
        throw invalid(`http is for HTTP-triggered workflows; this one's trigger is ${trigger.type}: send {"event": ...}`, [{ field: "http", message: "is only for a workflow with an HTTP trigger" }]);
      }
      return runNowEvent(checkHttpForm(body.http), trigger.endpoint_url, req.ip);
    }

    app.post(
      "/workflows/:id/run",
      runNow("workflows", async (user, id, body, req) => ({ run_id: await core.runs.runNow(user, id, await eventToRun(user, id, body, req)) }), RunStarted),
    );
    app.get("/workflows/:id/event_summaries", eventSummaries(core, "workflow"));
    app.get("/workflows/:id/$errors/event_summaries", eventSummaries(core, "workflow", "$errors"));
  };
}
