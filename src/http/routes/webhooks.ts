import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { queryOrBody } from "../query-params.ts";
import type { Core } from "../../core/core.ts";
import type { WebhookInput } from "../../core/webhooks.ts";
import { Deleted, Filter, IdParams, Paging, Webhook, WebhookDelivery, WebhookParams, data, page, withErrors } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";

const params = (req: FastifyRequest): WebhookInput => queryOrBody(req);

export function webhookRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const webhooks = core.webhooks;

    app.post(
      "/webhooks",
      { schema: { tags: ["webhooks"], querystring: WebhookParams, response: withErrors({ 200: data(Webhook) }) } },
      async (req) => {
        const { row, secret } = await webhooks.create(req.user, params(req));
        return { data: webhooks.view(row, secret) };
      },
    );

    app.get(
      "/webhooks/:id",
      { schema: { tags: ["webhooks"], params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(Webhook) }) } },
      async (req) => ({ data: webhooks.view(await webhooks.get(req.user, req.params.id)) }),
    );

    app.get(
      "/webhooks/:id/deliveries",
      {
        schema: {
          tags: ["webhooks"],
          params: IdParams,
          querystring: Type.Object({ ...Filter, ...Paging }),
          response: withErrors({ 200: page(WebhookDelivery) }),
        },
      },
      async (req) => {
        const { items, total } = await webhooks.deliveries(req.user, req.params.id, pageRequest(req.query));
        return pageEnvelope(items, total, (d) => webhooks.deliveryView(d));
      },
    );

    app.delete(
      "/webhooks/:id",
      { schema: { tags: ["webhooks"], params: IdParams, response: withErrors({ 200: data(Deleted) }) } },
      async (req) => {
        await webhooks.delete(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );

    app.get(
      "/users/me/webhooks",
      { schema: { tags: ["webhooks"], querystring: Type.Object({ ...Filter, ...Paging }), response: withErrors({ 200: page(Webhook) }) } },
      async (req) => {
        const { items, total } = await webhooks.list(req.user, pageRequest(req.query));
        return pageEnvelope(items, total, (w) => webhooks.view(w));
      },
    );
  };
}
