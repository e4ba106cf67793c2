import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { queryOrBody } from "../query-params.ts";
import type { Core } from "../../core/core.ts";
import type { SubscriptionInput } from "../../core/subscriptions.ts";
import { autoSubscriptionItemView, autoSubscriptionView, subscriptionView } from "../../core/subscriptions.ts";
import { AutoSubscription, AutoSubscriptionItem, Deleted, Filter, Subscription, SubscriptionParams, data, withErrors } from "../schemas.ts";

const AutoIdParams = Type.Object({ id: Type.String({ pattern: "^asub_[A-Za-z0-9_-]+$", description: "`asub_...`" }) });

const params = (req: FastifyRequest): SubscriptionInput => queryOrBody(req);

export function subscriptionRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const subs = core.subscriptions;
    const querystring = SubscriptionParams;

    app.post(
      "/subscriptions",
      { schema: { tags: ["subscriptions"], querystring, response: withErrors({ 200: data(Subscription) }) } },
      async (req) => ({ data: subscriptionView(await subs.create(req.user, params(req))) }),
    );

    app.delete(
      "/subscriptions",
      {
        schema: {
          tags: ["subscriptions"],
          querystring,
          response: withErrors({ 200: data(Type.Object({ deleted: Type.Integer() })) }),
        },
      },
      async (req) => ({ data: { deleted: await subs.delete(req.user, params(req)) } }),
    );

    app.post(
      "/auto_subscriptions",
      { schema: { tags: ["subscriptions"], querystring, response: withErrors({ 200: data(AutoSubscription) }) } },
      async (req) => ({ data: autoSubscriptionView(await subs.createAuto(req.user, params(req))) }),
    );

    app.get(
      "/users/me/auto_subscriptions",
      {
        schema: {
          tags: ["subscriptions"],
          querystring: Type.Object(Filter),
          response: withErrors({ 200: data(Type.Array(AutoSubscriptionItem)) }),
        },
      },
      async (req) => ({ data: (await subs.listAuto(req.user)).map(autoSubscriptionItemView) }),
    );

    app.delete(
      "/auto_subscriptions/:id",
      { schema: { tags: ["subscriptions"], params: AutoIdParams, response: withErrors({ 200: data(Deleted) }) } },
      async (req) => {
        await subs.deleteAuto(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );

    app.get(
      "/users/me/subscriptions",
      {
        schema: { tags: ["subscriptions"], querystring: Type.Object(Filter), response: withErrors({ 200: data(Type.Array(Subscription)) }) },
      },
      async (req) => ({ data: (await subs.list(req.user)).map(subscriptionView) }),
    );
  };
}
