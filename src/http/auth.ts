import type { FastifyRequest } from "fastify";
import type { Users } from "../core/users.ts";
import type { UserRow } from "../store/port.ts";
import { SESSION_COOKIE, type DashboardSessions } from "../core/dashboard-sessions.ts";
import { AppError } from "../lib/errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    user: UserRow;
    /** the key the request was made with; "" for a dashboard session, which never holds the key */
    apiKey: string;
  }
  interface FastifyInstance {
    /** the web dashboard's sign-in (routes/dashboard-session.ts); absent when the dashboard is off */
    dashboardSessions?: DashboardSessions;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The header the dashboard sends on every request of its own. Another site's page can't add it
 * without a CORS preflight, which the service never allows for it (cors.ts), so a request with it
 * was made by a page of this origin: the session cookie is read only then (and SameSite=Strict
 * keeps the cookie off other sites' requests as well).
 */
export const DASHBOARD_HEADER = "x-tributary-dashboard";

/** The key from `Authorization: Bearer <key>`, or from `?access_token=` where allowed (SSE). */
export function presentedKey(request: FastifyRequest, allowQueryToken = false): string | undefined {
  const header = request.headers.authorization;
  if (header) return BEARER.exec(header)?.[1];
  if (allowQueryToken) {
    const token = (request.query as Record<string, unknown> | undefined)?.access_token;
    if (typeof token === "string" && token) return token;
  }
  return undefined;
}

/** Whether the request says it is the dashboard's own, and the browser doesn't say otherwise. */
export function fromDashboard(request: FastifyRequest): boolean {
  if (request.headers[DASHBOARD_HEADER] !== "1") return false;
  // sent by browsers on every request: a page of another origin (a sandboxed endpoint page has
  // an opaque one) is never "same-origin"; clients that send none are not browsers
  const site = request.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin";
}

/** The signed-in dashboard user of a request the dashboard made, from its session cookie. */
export async function dashboardSession(request: FastifyRequest): Promise<{ user: UserRow; expiresAt: number } | undefined> {
  const sessions = request.server.dashboardSessions;
  const cookies = request.headers.cookie;
  if (!sessions || !cookies || !fromDashboard(request)) return undefined;
  const token = request.server.parseCookie(cookies)[SESSION_COOKIE];
  return token ? sessions.user(token) : undefined;
}

/**
 * onRequest hook: every /v1 route (and the SSE streams) needs a valid key; the user rides on the
 * request. Without an Authorization header, the dashboard's session cookie is taken instead.
 */
export function authHook(users: Users, allowQueryToken = false) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = presentedKey(request, allowQueryToken);
    if (!key) {
      const session = request.headers.authorization === undefined ? await dashboardSession(request) : undefined;
      if (!session) {
        const message = fromDashboard(request) ? "the dashboard session has ended: sign in again" : "send your API key as Authorization: Bearer <key>";
        throw new AppError("unauthorized", message);
      }
      request.user = session.user;
      request.apiKey = "";
      return;
    }
    const user = await users.authenticate(key);
    if (!user) throw new AppError("unauthorized", "this API key is not valid");
    request.user = user;
    request.apiKey = key;
  };
}
