import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { buildDashboard, type DashboardBuild } from "../../dashboard/build.ts";
import { AppError, notFound } from "../../lib/errors.ts";

// The web dashboard (docs/dashboard.md): GET / is its page, GET /assets/<hashed name> its files.
// Same origin as the API, nothing from elsewhere: the CSP allows only this origin. The bundle is
// made in-process (dashboard/build.ts), started as soon as the server listens so that the first
// page load does not wait for it.

// Mantine sets CSS variables in a <style> element and inline styles: style-src needs 'unsafe-inline'.
// Scripts: only the page's own, by a nonce made per response ('strict-dynamic' lets it load its
// chunks). Not 'self': /http/... is this origin too, and a source may serve JavaScript there, so
// an HTML injection anywhere in the dashboard could otherwise load a tenant's script.
const csp = (nonce: string) => [
  "default-src 'self'",
  `script-src 'nonce-${nonce}' 'strict-dynamic'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");
const SCRIPT_TAG = "<script type=\"module\"";

/** Prefers brotli, then gzip, as the client accepts them (q=0 refuses one). */
function encodingFor(accept: string | undefined): "br" | "gzip" | undefined {
  const accepted = new Set(
    (accept ?? "")
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return undefined;
}

export function dashboardRoutes() {
  return async (app: FastifyInstance) => {
    let build: Promise<DashboardBuild> | undefined;
    const ready = () => {
      build ??= buildDashboard().then(
        (b) => {
          app.log.info({ from: b.from, ms: b.ms }, "dashboard ready");
          return b;
        },
        (err: unknown) => {
          app.log.error({ err }, "dashboard build failed");
          build = undefined; // the next request tries again
          throw new AppError("unavailable", "the dashboard could not be built: see the service log");
        },
      );
      return build;
    };
    app.addHook("onListen", async () => {
      ready().catch(() => {});
    });

    app.get("/", { schema: { hide: true } }, async (_req, reply) => {
      const b = await ready();
      const nonce = randomBytes(16).toString("base64");
      reply
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-cache")
        .header("content-security-policy", csp(nonce))
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "no-referrer");
      return b.html.replace(SCRIPT_TAG, `<script nonce="${nonce}" type="module"`);
    });

    app.get("/assets/:name", { schema: { hide: true } }, async (req: FastifyRequest, reply: FastifyReply) => {
      const { name } = req.params as { name: string };
      const a = (await ready()).assets.get(name);
      if (!a) throw notFound("asset");
      reply
        .header("content-type", a.type)
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("etag", a.etag)
        .header("vary", "accept-encoding")
        .header("x-content-type-options", "nosniff");
      if (req.headers["if-none-match"] === a.etag) return reply.status(304).send();
      const encoding = encodingFor(req.headers["accept-encoding"]);
      if (encoding) reply.header("content-encoding", encoding);
      return reply.send(encoding === "br" ? a.br : encoding === "gzip" ? a.gzip : a.raw);
    });
  };
}
