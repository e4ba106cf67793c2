import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { componentView } from "../../core/components.ts";
import { ConfigurableProp, data, withErrors } from "../schemas.ts";

// A props form's questions about a component (docs/api.md, "Dynamic props"), answered by its code in the
// sandbox: a prop's options, and its props as configured so far (additionalProps()).

const Configured = Type.Record(Type.String(), Type.Unknown(), {
  description: "the props set so far, as a source's configured_props: app props name an account of yours ({authProvisionId})",
});

const SourceId = Type.String({ description: "a source of yours of this component, being edited: its stored values (secrets too) stand under configured_props" });

const OptionsBody = Type.Object({
  configured_props: Type.Optional(Configured),
  source_id: Type.Optional(SourceId),
  prev_context: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "the context the previous page came with: the next page" })),
  query: Type.Optional(Type.String({ maxLength: 1000, description: "what the user typed to search for" })),
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: "the page asked for, from 0 (Pipedream's `page`)" })),
});

const Options = Type.Object({
  options: Type.Array(Type.Object({ label: Type.String(), value: Type.Unknown() })),
  context: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "present when there are more: send it back as prev_context" })),
});

const ReloadBody = Type.Object({ configured_props: Type.Optional(Configured), source_id: Type.Optional(SourceId) });

export function componentPropRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ["components"];

    app.post(
      "/components/:id/props/:prop/options",
      {
        schema: {
          tags,
          summary: "A prop's options, from its options() run in the sandbox",
          params: Type.Object({ id: Type.String(), prop: Type.String() }),
          body: OptionsBody,
          response: withErrors({ 200: data(Options) }, [422]),
        },
      },
      async (req) => ({ data: await core.dynamicProps.options(req.user, req.params.id, req.params.prop, req.body) }),
    );

    app.post(
      "/components/:id/props/reload",
      {
        schema: {
          tags,
          summary: "The component's props as configured: its own and those additionalProps() adds",
          params: Type.Object({ id: Type.String() }),
          body: ReloadBody,
          response: withErrors({ 200: data(Type.Object({ configurable_props: Type.Array(ConfigurableProp) })) }, [422]),
        },
      },
      async (req) => {
        const { component, props } = await core.dynamicProps.reload(req.user, req.params.id, req.body.configured_props, req.body.source_id);
        // described as GET /components/{id} describes its props
        return { data: { configurable_props: componentView({ ...component, meta: { ...component.meta, props } }).configurable_props } };
      },
    );
  };
}
