import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { DashboardSessions, SESSION_COOKIE, SESSION_SECONDS } from "../../core/dashboard-sessions.ts";
import type { UserRow, UserStore } from "../../store/port.ts";
import { AppError } from "../../lib/errors.ts";
import { dashboardSession, fromDashboard } from "../auth.ts";

// The web dashboard's sign-in (docs/dashboard.md): the key typed at sign-in is sent here once and
// exchanged for an HttpOnly session cookie, so that no script of the page (nor one that an
// endpoint's page might run with this origin) can read a key. GET says who is signed in, POST
// {key} signs in, DELETE signs out. Every one of them needs the dashboard's header (auth.ts), so
// another site can't sign a browser in or out either.

export interface SessionOptions {
  /** the service's secret key (secret-key.ts): sessions are sealed with a key derived from it */
  secretKey: Buffer;
  /** where a session's key hash is looked up, on every request */
  users: Pick<UserStore, "byKeyHash">;
}

interface SignIn {
  key: string;
}

const body = {
  type: "object",
  required: ["key"],
  additionalProperties: false,
  properties: { key: { type: "string", minLength: 1, maxLength: 256 } },
} as const;

/**
 * Secure whenever the browser reached us over https, also through a proxy that says so: a
 * forwarded header can only make the cookie stricter, so it needs no trust.
 */
function overHttps(req: FastifyRequest): boolean {
  const forwarded = req.headers["x-forwarded-proto"];
  return req.protocol === "https" || (typeof forwarded === "string" && forwarded.split(",")[0].trim().toLowerCase() === "https");
}

const cookieOptions = (req: FastifyRequest) => ({ path: "/", httpOnly: true, sameSite: "strict" as const, secure: overHttps(req) });

const signedIn = (user: UserRow, expiresAt: number) => ({
  data: { signed_in: true, user: { id: user.id, username: user.username, email: user.email, admin: user.admin }, expires_at: expiresAt },
});

/**
 * @fastify/cookie (parsing on demand only: endpoints never pay for it) and the session, on the
 * root instance so that the /v1 and SSE auth hooks find them; then the routes.
 */
export async function dashboardSessionRoutes(app: FastifyInstance, core: Core, opts: SessionOptions): Promise<void> {
  const sessions = new DashboardSessions(opts.secretKey, opts.users);
  await app.register(cookie, { hook: false });
  app.decorate("dashboardSessions", sessions);

  await app.register(async (scope) => {
    scope.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
      reply.header("cache-control", "no-store");
      if (!fromDashboard(req)) throw new AppError("forbidden", "the dashboard's session is for the dashboard's own requests (X-Tributary-Dashboard: 1)");
    });
    const opts = { schema: { hide: true } };

    scope.get("/dashboard/session", opts, async (req) => {
      const session = await dashboardSession(req);
      return session ? signedIn(session.user, session.expiresAt) : { data: { signed_in: false } };
    });

    scope.post("/dashboard/session", { schema: { hide: true, body } }, async (req, reply) => {
      const { key } = req.body as SignIn;
      // the same check as a Bearer key's (auth.ts)
      const user = await core.users.authenticate(key);
      if (!user) throw new AppError("unauthorized", "this API key is not valid");
      const { token, expiresAt } = sessions.open(key);
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge: SESSION_SECONDS });
      return signedIn(user, expiresAt);
    });

    scope.delete("/dashboard/session", opts, async (req, reply) => {
      // the token stays valid until it expires in whatever still holds it (nothing is kept to
      // revoke it): rotating the key is what ends every session of a user (docs/dashboard.md)
      reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
      return { data: { signed_in: false } };
    });
  });
}
