import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { requireAdmin } from "../../core/users.ts";
import { COMPONENT_TYPES, componentSummaryView, componentView } from "../../core/components.ts";
import { Component, ComponentBody, ComponentSummary, Filter, Paging, data, page, withErrors } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";

export function componentRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const save = { tags: ["components"], body: ComponentBody, response: withErrors({ 200: data(Component) }, [413, 422]) };

    app.post("/components", { schema: save }, async (req) => ({
      data: componentView(await core.components.save(req.user, req.body)),
    }));

    app.post(
      "/components/registry",
      { preValidation: async (req) => requireAdmin(req.user), schema: { ...save, response: withErrors({ 200: data(Component) }, [403, 413, 422]) } },
      async (req) => ({ data: componentView(await core.components.save(null, req.body)) }),
    );

    const type = Type.Optional(Type.Enum([...COMPONENT_TYPES], { description: "only components of this type" }));
    const list = { tags: ["components"], querystring: Type.Object({ ...Filter, ...Paging, type }), response: withErrors({ 200: page(ComponentSummary) }) };

    app.get("/users/me/components", { schema: list }, async (req) => {
      const { items, total } = await core.components.list(req.user, pageRequest(req.query), req.query.type);
      return pageEnvelope(items, total, componentSummaryView);
    });

    // a static path: the router prefers it to /components/:keyOrId, so "registry" is never taken as a key
    app.get("/components/registry", { schema: list }, async (req) => {
      const { items, total } = await core.components.list(null, pageRequest(req.query), req.query.type);
      return pageEnvelope(items, total, componentSummaryView);
    });

    app.get(
      "/components/registry/:key",
      {
        schema: {
          tags: ["components"],
          params: Type.Object({ key: Type.String() }),
          querystring: Type.Object(Filter),
          response: withErrors({ 200: data(Component) }),
        },
      },
      async (req) => ({ data: componentView(await core.components.registry(req.params.key)) }),
    );

    app.get(
      "/components/:keyOrId",
      {
        schema: {
          tags: ["components"],
          params: Type.Object({ keyOrId: Type.String() }),
          querystring: Type.Object(Filter),
          response: withErrors({ 200: data(Component) }),
        },
      },
      async (req) => ({ data: componentView(await core.components.get(req.user, req.params.keyOrId)) }),
    );
  };
}
