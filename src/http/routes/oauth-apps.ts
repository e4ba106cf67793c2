import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { Deleted, Filter, IdParams, data, withErrors } from "../schemas.ts";

// OAuth apps (docs/connecting-accounts.md, "Configuring an OAuth app (admins)"): admins configure them; every user lists them to know which apps
// they can connect. No response has a field for the client secret.

const OAuthApp = Type.Object({
  id: Type.String({ description: "`oa_...`" }),
  app: Type.String(),
  client_id: Type.String(),
  authorize_url: Type.String(),
  token_url: Type.String(),
  scopes: Type.Array(Type.String()),
  pkce: Type.Boolean(),
  token_auth: Type.Union([Type.Literal("basic"), Type.Literal("body")]),
  authorize_params: Type.Record(Type.String(), Type.String()),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

// Checked field by field in core (one 400 lists every problem), so the schema only documents it.
const OAuthAppBody = Type.Object({
  app: Type.Optional(Type.Unknown({ description: "the app's name, e.g. github (create only); one OAuth app per app" })),
  client_id: Type.Optional(Type.Unknown({ description: "the client id the provider gave" })),
  client_secret: Type.Optional(Type.Unknown({ description: "the client secret; sealed at rest, never returned" })),
  authorize_url: Type.Optional(Type.Unknown({ description: "the provider's authorization endpoint" })),
  token_url: Type.Optional(Type.Unknown({ description: "the provider's token endpoint" })),
  scopes: Type.Optional(Type.Unknown({ description: "scopes asked for when a connect request names none" })),
  pkce: Type.Optional(Type.Unknown({ description: "send a PKCE S256 challenge (default true)" })),
  token_auth: Type.Optional(Type.Unknown({ description: '"basic" (default) or "body": how the client authenticates at the token endpoint' })),
  authorize_params: Type.Optional(Type.Unknown({ description: "extra query parameters of the authorization URL, e.g. {access_type: offline}" })),
  ...Filter,
});

export function oauthAppRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const apps = core.oauthApps;
    const view = (a: Parameters<typeof apps.view>[0]) => apps.view(a);
    const tags = ["oauth apps"];

    app.post("/oauth_apps", { schema: { tags, body: OAuthAppBody, response: withErrors({ 200: data(OAuthApp) }, [403, 409]) } }, async (req) => ({
      data: view(await apps.create(req.user, req.body)),
    }));

    app.get(
      "/oauth_apps",
      { schema: { tags, querystring: Type.Object(Filter), response: withErrors({ 200: data(Type.Array(OAuthApp)) }) } },
      async () => ({ data: (await apps.list()).map(view) }),
    );

    app.get(
      "/oauth_apps/:id",
      { schema: { tags, params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(OAuthApp) }) } },
      async (req) => ({ data: view(await apps.get(req.params.id)) }),
    );

    app.put(
      "/oauth_apps/:id",
      { schema: { tags, params: IdParams, body: OAuthAppBody, response: withErrors({ 200: data(OAuthApp) }, [403]) } },
      async (req) => ({ data: view(await apps.update(req.user, req.params.id, req.body)) }),
    );

    app.delete(
      "/oauth_apps/:id",
      { schema: { tags, params: IdParams, response: withErrors({ 200: data(Deleted) }, [403]) } },
      async (req) => {
        await apps.delete(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );
  };
}
