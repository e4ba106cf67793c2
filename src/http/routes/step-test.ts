import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { data, withErrors } from "../schemas.ts";

// Testing a step on a past run without committing anything (docs/api.md, "Workflows"): the saved
// step, or a draft of its code and props, run with `steps` as the run had them before it.

const Params = Type.Object({ id: Type.String(), name: Type.String({ minLength: 1, maxLength: 200 }) });

const Body = Type.Object(
  {
    run_id: Type.String({ minLength: 1, maxLength: 100, description: "the run (`r_...`) of this workflow whose trigger event and earlier steps' results the step sees" }),
    code: Type.Optional(Type.String({ description: "a draft of the step's code (default: the saved step's)" })),
    props: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "a draft of the step's props (default: the saved ones; a secret shown as saved keeps its value)" })),
  },
  { additionalProperties: false },
);

const Result = Type.Object({
  return_value: Type.Unknown({ description: "what the step returned (null: nothing)" }),
  exports: Type.Unknown({ description: "what it exported ($.export), an object" }),
  logs: Type.Array(Type.Unknown({ description: "{level, msg, ts}" })),
  error: Type.Optional(Type.Unknown({ description: "{name, message, stack}: why it failed" })),
  duration_ms: Type.Number(),
  sends: Type.Array(Type.Object({ kind: Type.Enum(["http", "email"]), request: Type.Unknown() }), { description: "what it would have sent: not sent" }),
  response: Type.Optional(Type.Unknown({ description: "what it answered with $.respond: nobody got it" })),
  data_store_writes: Type.Array(Type.Object({ store: Type.String(), operations: Type.Integer() }), { description: "data store writes it made: not written" }),
  flow: Type.Optional(Type.String({ description: "it asked to wait (delay, suspend, rerun) or exited: nothing waits" })),
});

export function stepTestRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      "/workflows/:id/steps/:name/test",
      { schema: { tags: ["workflows"], params: Params, body: Body, response: withErrors({ 200: data(Result) }) } },
      async (req) => ({ data: await core.workflows.testStep(req.user, req.params.id, req.params.name, req.body) }),
    );
  };
}
