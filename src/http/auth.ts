import type { FastifyRequest } from "fastify";
import type { Users } from "../core/users.ts";
import type { UserRow } from "../store/port.ts";
import { AppError } from "../lib/errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    user: UserRow;
    apiKey: string;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

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

/** onRequest hook: every /v1 route needs a valid key; the user rides on the request. */
export function authHook(users: Users, allowQueryToken = false) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = presentedKey(request, allowQueryToken);
    if (!key) throw new AppError("unauthorized", "send your API key as Authorization: Bearer <key>");
    const user = await users.authenticate(key);
    if (!user) throw new AppError("unauthorized", "this API key is not valid");
    request.user = user;
    request.apiKey = key;
  };
}
