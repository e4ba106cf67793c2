import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Core } from "../../core/core.ts";
import type { UserRow } from "../../store/port.ts";
import { requireAdmin } from "../../core/users.ts";
import { Filter, IdParams, Paging, User, UserSummary, data, page, withErrors, Deleted } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";
import { accountRoutes } from "./accounts.ts";
import { accountConnectRoutes } from "./account-connect.ts";
import { oauthAppRoutes } from "./oauth-apps.ts";
import { envVarRoutes } from "./env-vars.ts";

// Admin routes refuse non-admins before looking at their input.
const adminOnly = async (req: { user: UserRow }) => requireAdmin(req.user);

const summary = (u: UserRow) => ({ id: u.id, username: u.username, email: u.email, admin: u.admin, created_at: u.created_at });

export function userRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    // the user's connected accounts (/accounts, /users/me/accounts), which belong to the user
    await app.register(accountRoutes(core));
    await app.register(accountConnectRoutes(core));
    await app.register(oauthAppRoutes(core));
    // the user's environment variables (/users/me/env)
    await app.register(envVarRoutes(core));

    app.get(
      "/users/me",
      { schema: { tags: ["users"], querystring: Type.Object(Filter), response: withErrors({ 200: data(User) }) } },
      async (req) => {
        return { data: core.users.view(req.user, req.apiKey) };
      },
    );

    app.post(
      "/users/me/api_key",
      { schema: { tags: ["users"], response: withErrors({ 200: data(User) }) } },
      async (req) => {
        const key = await core.users.rotateKey(req.user);
        return { data: core.users.view(req.user, key) };
      },
    );

    app.post(
      "/users",
      {
        preValidation: adminOnly,
        schema: {
          tags: ["users"],
          body: Type.Object({ username: Type.String(), email: Type.String(), admin: Type.Optional(Type.Boolean()), ...Filter }),
          response: withErrors({ 200: data(User) }, [403]),
        },
      },
      async (req) => {
        const { user, apiKey } = await core.users.add(req.user, req.body);
        return { data: core.users.view(user, apiKey) };
      },
    );

    app.get(
      "/users",
      {
        preValidation: adminOnly,
        schema: {
          tags: ["users"],
          querystring: Type.Object({ ...Filter, ...Paging }),
          response: withErrors({ 200: page(UserSummary) }, [403]),
        },
      },
      async (req) => {
        const result = await core.users.list(req.user, pageRequest(req.query));
        return pageEnvelope(result.items, result.total, summary);
      },
    );

    app.delete(
      "/users/:id",
      { preValidation: adminOnly, schema: { tags: ["users"], params: IdParams, response: withErrors({ 200: data(Deleted) }, [403]) } },
      async (req) => {
        await core.users.delete(req.user, req.params.id);
        return { data: { id: req.params.id, deleted: true } };
      },
    );
  };
}
