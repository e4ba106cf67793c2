import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import type { EnvVarRow } from "../../store/port.ts";
import { Filter, data, withErrors } from "../schemas.ts";

// The caller's environment variables (process.env in their sources and workflows). A secret's
// value is never in a response: view() leaves it out, and the schema can't carry what it omits.

export const EnvVar = Type.Object({
  name: Type.String(),
  secret: Type.Boolean(),
  value: Type.Optional(Type.String({ description: "absent for a secret" })),
  updated_at: Type.Integer(),
});

const NameParams = Type.Object({ name: Type.String({ description: "`^[A-Za-z_][A-Za-z0-9_]{0,127}$`, case-sensitive" }) });

// Checked field by field in core (one 400 lists every problem), so the schema only documents it.
const EnvVarBody = Type.Object({
  value: Type.Optional(Type.Unknown({ description: "string of at most 64 KiB (UTF-8), required; sealed at rest" })),
  secret: Type.Optional(Type.Unknown({ description: "boolean: never show the value again; when absent, a new variable is not secret and a replaced one stays as it was" })),
  ...Filter,
});

export function envVarRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const env = core.envVars;
    const view = (row: EnvVarRow) => env.view(row);
    const tags = ["environment variables"];

    app.get(
      "/users/me/env",
      { schema: { tags, querystring: Type.Object(Filter), response: withErrors({ 200: data(Type.Array(EnvVar)) }) } },
      async (req) => ({ data: (await env.list(req.user)).map(view) }),
    );

    app.put(
      "/users/me/env/:name",
      { schema: { tags, params: NameParams, body: EnvVarBody, response: withErrors({ 200: data(EnvVar) }, [409]) } },
      async (req) => ({ data: view(await env.put(req.user, req.params.name, req.body)) }),
    );

    app.delete(
      "/users/me/env/:name",
      {
        schema: {
          tags,
          params: NameParams,
          response: withErrors({ 200: data(Type.Object({ name: Type.String(), deleted: Type.Boolean() })) }),
        },
      },
      async (req) => {
        await env.delete(req.user, req.params.name);
        return { data: { name: req.params.name, deleted: true } };
      },
    );
  };
}
