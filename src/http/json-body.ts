import type { FastifyRequest } from "fastify";
import { AppError } from "../lib/errors.ts";

// JSON bodies, parsed with "__proto__" keys dropped. An empty body with a JSON
// content type is "no body": Pipedream's documented curl calls (POST /subscriptions?...) send
// exactly that, and they must keep working. It reads as an empty object.
export function jsonBodyParser(_req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void): void {
  const text = typeof body === "string" ? body : body.toString("utf8");
  if (text.trim() === "") return done(null, {});
  try {
    done(
      null,
      JSON.parse(text, (key, value) => (key === "__proto__" ? undefined : value)),
    );
  } catch {
    done(new AppError("invalid_request", "body is not valid JSON"));
  }
}
