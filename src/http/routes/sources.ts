import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { Deleted, Filter, IdParams, Paging, Source, SourceBody, data, page, withErrors } from "../schemas.ts";
import { pageRequest, renderedPageEnvelope } from "../pagination.ts";

export function sourceRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const sources = core.sources;

    app.get(
      "/users/me/sources/",
      {
        schema: {
          tags: ["sources"],
          querystring: Type.Object({ ...Filter, ...Paging }),
          response: withErrors({ 200: page(Source) }),
        },
      },
      async (req, reply) => {
        const { json, ids, total } = await sources.list(req.user, pageRequest(req.query));
        // already JSON: sent as is, past the serializer (the schema above documents the shape)
        return reply.type("application/json; charset=utf-8").send(renderedPageEnvelope(json, ids, total));
      },
    );

    app.post(
      "/sources/",
      { schema: { tags: ["sources"], body: SourceBody, response: withErrors({ 200: data(Source) }, [413, 422]) } },
      async (req) => ({ data: await sources.view(await sources.create(req.user, req.body), true) }),
    );

    app.get(
      "/sources/:id",
      { schema: { tags: ["sources"], params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(Source) }) } },
      async (req) => ({ data: await sources.view(await sources.get(req.user, req.params.id), true) }),
    );

    app.put(
      "/sources/:id",
      {
        schema: { tags: ["sources"], params: IdParams, body: SourceBody, response: withErrors({ 200: data(Source) }, [413, 422]) },
      },
      async (req) => ({ data: await sources.view(await sources.update(req.user, req.params.id, req.body), true) }),
    );

    app.delete(
      "/sources/:id",
      { schema: { tags: ["sources"], params: IdParams, response: withErrors({ 200: data(Deleted) }) } },
      async (req) => {
        await sources.delete(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );
  };
}
