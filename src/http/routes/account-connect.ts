import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { Filter, IdParams, data, withErrors } from "../schemas.ts";

// Connecting accounts with OAuth (docs/connecting-accounts.md): a flow's start (new account or reconnect)
// and how it stands, which the CLI and the dashboard poll while the user is at the provider.

const ConnectStart = Type.Object({
  id: Type.String({ description: "`oc_...`: the flow, for GET /accounts/connect/{id}" }),
  authorize_url: Type.String({ description: "open it in a browser: the provider's page that asks the user to authorize" }),
  expires_at_ms: Type.Integer({ description: "the flow must finish before this" }),
});

const Flow = Type.Object({
  id: Type.String(),
  app: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("connected"), Type.Literal("failed"), Type.Literal("expired")]),
  account_id: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  expires_at_ms: Type.Integer(),
});

const ConnectBody = Type.Object({
  app: Type.Optional(Type.Unknown({ description: "the app to connect (an admin configured an OAuth app for it)" })),
  name: Type.Optional(Type.Unknown({ description: "the new account's name; the app's by default" })),
  scopes: Type.Optional(Type.Unknown({ description: "scopes to ask for instead of the OAuth app's" })),
  ...Filter,
});

const ReconnectBody = Type.Union([Type.Object({ scopes: Type.Optional(Type.Unknown()), ...Filter }), Type.Null()]);

export function accountConnectRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ["accounts"];

    app.post("/accounts/connect", { schema: { tags, body: ConnectBody, response: withErrors({ 200: data(ConnectStart) }) } }, async (req) => ({
      data: await core.oauthConnect.start(req.user, req.body),
    }));

    app.get(
      "/accounts/connect/:id",
      { schema: { tags, params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(Flow) }) } },
      async (req) => ({ data: await core.oauthConnect.flow(req.user, req.params.id) }),
    );

    app.post(
      "/accounts/:id/reconnect",
      { schema: { tags, params: IdParams, body: Type.Optional(ReconnectBody), response: withErrors({ 200: data(ConnectStart) }) } },
      async (req) => {
        const account = await core.accounts.get(req.user, req.params.id);
        return { data: await core.oauthConnect.start(req.user, req.body ?? {}, account) };
      },
    );
  };
}
