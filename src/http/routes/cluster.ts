import type { FastifyPluginAsync } from "fastify";
import { timingSafeEqual } from "node:crypto";
import type { Core } from "../../core/core.ts";
import { AppError } from "../../lib/errors.ts";
import { presentedKey } from "../auth.ts";

// Node-to-node routes (several nodes): not part of the API, hidden from its document, and open
// only to the other nodes (a token derived from the secret key they share).

export function clusterRoutes(core: Core, token: string): FastifyPluginAsync {
  const expected = Buffer.from(token);
  return async (app) => {
    app.addHook("onRequest", async (req) => {
      const got = Buffer.from(presentedKey(req) ?? "");
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) throw new AppError("unauthorized", "node-to-node calls only");
    });
    // a customResponse request another node took for a source this node runs
    app.post("/_cluster/respond/:id", { schema: { hide: true } }, async (req) => {
      const { id } = req.params as { id: string };
      const eventJson = (req.body as { event_json?: unknown } | undefined)?.event_json;
      if (typeof eventJson !== "string") throw new AppError("invalid_request", "event_json must be a string");
      return { data: await core.runtime.ingress.respondHere(id, eventJson) };
    });
  };
}
