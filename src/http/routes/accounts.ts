import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import { Deleted, Filter, IdParams, Paging, data, page, withErrors } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";

// Connected accounts (Pipedream's `apn_` ids). No response carries the auth: the schema below
// has no field for it, so even a bug upstream could not serialize it.

export const Account = Type.Object({
  id: Type.String({ description: "`apn_...`" }),
  app: Type.String(),
  name: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  auth_fields: Type.Array(Type.String(), { description: "the names of the auth's fields, in the order given; never their values" }),
  oauth: Type.Boolean({ description: "connected with OAuth: the service refreshes its tokens" }),
  status: Type.Union([Type.Literal("ok"), Type.Literal("error")], { description: '"error": its token refresh was refused; runs that use it fail until it is reconnected' }),
  status_reason: Type.Optional(Type.String()),
  expires_at_ms: Type.Optional(Type.Integer({ description: "when its access token expires, if the provider said" })),
  events_url: Type.Union([Type.String(), Type.Null()], { description: "where the app sends its events for the apphook props bound to this account (no API key: keep it private); null for an account made by a node of the previous version, until it is edited or reconnected" }),
});

const TestEventBody = Type.Object({
  name: Type.Unknown({ description: "string: the event's name, e.g. message or orders/create" }),
  event: Type.Optional(Type.Unknown({ description: "what the hooks' runs receive as their event" })),
});

const Delivered = Type.Object({
  delivered: Type.Array(Type.String(), { description: "the `dc_` ids of the sources a run was accepted for" }),
});

// Checked field by field in core (one 400 lists every problem), so the schema only documents it.
const AccountBody = Type.Object({
  app: Type.Optional(Type.Unknown({ description: "the app's name, e.g. github (create only; it can't change)" })),
  name: Type.Optional(Type.Unknown({ description: "string of at most 200 characters; the app's name when not given" })),
  auth: Type.Optional(Type.Unknown({ description: "object: the app's credentials, e.g. {oauth_access_token}; sealed at rest, never returned" })),
  ...Filter,
});

export function accountRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const accounts = core.accounts;
    const view = (a: Parameters<typeof accounts.view>[0]) => accounts.view(a);
    const tags = ["accounts"];

    app.post("/accounts", { schema: { tags, body: AccountBody, response: withErrors({ 200: data(Account) }) } }, async (req) => ({
      data: view(await accounts.create(req.user, req.body)),
    }));

    app.get(
      "/accounts/:id",
      { schema: { tags, params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(Account) }) } },
      async (req) => ({ data: view(await accounts.get(req.user, req.params.id)) }),
    );

    app.put(
      "/accounts/:id",
      { schema: { tags, params: IdParams, body: AccountBody, response: withErrors({ 200: data(Account) }) } },
      async (req) => ({ data: view(await accounts.update(req.user, req.params.id, req.body)) }),
    );

    app.delete(
      "/accounts/:id",
      { schema: { tags, params: IdParams, response: withErrors({ 200: data(Deleted) }, [409]) } },
      async (req) => {
        await accounts.delete(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );

    app.post(
      "/accounts/:id/events_url",
      { schema: { tags, summary: "A new events_url for the account; the old one stops working", params: IdParams, response: withErrors({ 200: data(Account) }) } },
      async (req) => ({ data: view(await accounts.rotateEventsUrl(req.user, req.params.id)) }),
    );

    app.post(
      "/accounts/:id/events",
      { schema: { tags, params: IdParams, body: TestEventBody, response: withErrors({ 200: data(Delivered) }) } },
      async (req) => ({ data: await core.appHooks.test(req.user, req.params.id, req.body) }),
    );

    app.get(
      "/users/me/accounts",
      { schema: { tags, querystring: Type.Object({ ...Filter, ...Paging }), response: withErrors({ 200: page(Account) }) } },
      async (req) => {
        const { items, total } = await accounts.list(req.user, pageRequest(req.query));
        return pageEnvelope(items, total, view);
      },
    );
  };
}
