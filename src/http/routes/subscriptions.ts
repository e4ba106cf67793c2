import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { queryOrBody } from "../query-params.ts";
import type { Core } from "../../core/core.ts";
import type { SubscriptionInput } from "../../core/subscriptions.ts";
import { autoSubscriptionView, subscriptionView } from "../../core/subscriptions.ts";
import { AutoSubscription, Filter, Subscription, SubscriptionParams, data, withErrors } from "../schemas.ts";

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
      "/users/me/subscriptions",
      {
        schema: { tags: ["subscriptions"], querystring: Type.Object(Filter), response: withErrors({ 200: data(Type.Array(Subscription)) }) },
      },
      async (req) => ({ data: (await subs.list(req.user)).map(subscriptionView) }),
    );
  };
}
