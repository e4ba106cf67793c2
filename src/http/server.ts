import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from "fastify";
import swagger from "@fastify/swagger";
import { Ajv } from "ajv";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Core } from "../core/core.ts";
import { ErrorEnvelope } from "./schemas.ts";
import { errorHandler, frameworkErrorHandler, notFoundHandler } from "./errors.ts";
import { answerUnhandledRequests, clientErrorHandler, requireHost } from "./client-errors.ts";
import { capConnections, connectionOptions, holdWhileWorking, serverWithFirstLook } from "./connections.ts";
import type { HttpLimits } from "../config.ts";
import { authHook } from "./auth.ts";
import { filterHook } from "./filter.ts";
import { jsonBodyParser } from "./json-body.ts";
import { AppError } from "../lib/errors.ts";
import { userRoutes } from "./routes/users.ts";
import { componentRoutes } from "./routes/components.ts";
import { componentPropRoutes } from "./routes/component-props.ts";
import { sourceRoutes } from "./routes/sources.ts";
import { subscriptionRoutes } from "./routes/subscriptions.ts";
import { eventRoutes } from "./routes/events.ts";
import { errorSummaryRoutes } from "./routes/error-summaries.ts";
import { sseRoutes } from "./routes/sse.ts";
import { runCallbackRoutes } from "./routes/run-callbacks.ts";
import { oauthCallbackRoutes } from "./routes/oauth-callback.ts";
import { ingressRoutes } from "./routes/ingress.ts";
import { appEventRoutes } from "./routes/app-events.ts";
import { clusterRoutes } from "./routes/cluster.ts";
import { workflowRoutes } from "./routes/workflows.ts";
import { runRoutes } from "./routes/runs.ts";
import { runsReplayRoutes } from "./routes/runs-replay.ts";
import { stepTestRoutes } from "./routes/step-test.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { dataStoreRoutes } from "./routes/data-stores.ts";
import { installCors } from "./cors.ts";
import { refuseEarly } from "./early-refusal.ts";
import { dashboardRoutes } from "./routes/dashboard.ts";
import { dashboardSessionRoutes, type SessionOptions } from "./routes/dashboard-session.ts";
import { sandboxEndpointReplies } from "./component-reply.ts";
import { metricsRoute, type PromMetrics } from "./metrics.ts";

export interface HttpOptions {
  logger: FastifyServerOptions["logger"];
  bodyLimit: number;
  version: string;
  /** answers GET /healthz: resolves when the store is usable */
  /** resolves (with what is degraded, if anything) while the service can serve; rejects while it can't */
  health: () => Promise<string | undefined>;
  /** connection timeouts and cap (Config.httpLimits) */
  limits: HttpLimits;
  /** origins the API and SSE answer CORS requests from (["*"]: any; none: CORS off) */
  corsOrigins?: readonly string[];
  /** GET /metrics serves these (absent: no /metrics); with a token it needs it as a Bearer token */
  metrics?: PromMetrics;
  metricsToken?: string;
  /** several nodes: the token of node-to-node calls (absent: no such routes) */
  clusterToken?: string;
  /** serve the web dashboard at / (Config.dashboard) */
  dashboard?: boolean;
  /** the dashboard's sign-in sessions (with `dashboard` on) */
  dashboardSession?: SessionOptions;
}

// Kept out of the per-request log: events sent to HTTP sources (counted in the metrics instead),
// the probes, and the dashboard's static files.
const unlogged = (route: string) =>
  route.startsWith("/http/") || route === "/healthz" || route === "/metrics" || route.startsWith("/assets/");

// Query strings and path params are strings on the wire, so they are coerced (limit=10 → 10);
// bodies are JSON and must already carry the right types ("true" is not a boolean).
const ajvOptions = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false } as const;
const bodyAjv = new Ajv({ ...ajvOptions, coerceTypes: false });
const paramAjv = new Ajv({ ...ajvOptions, coerceTypes: "array" });

export async function createHttpServer(core: Core, opts: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    serverFactory: serverWithFirstLook(opts.limits, refuseEarly(core.runtime.backlog, opts.metrics)),
    logger: opts.logger,
    bodyLimit: opts.bodyLimit,
    // Fastify's two lines per request would cost more than many requests themselves: the one
    // compact line per API request is the onResponse hook below; errors are still logged
    logController: new LogController({ disableRequestLogging: true }),
    // refused with the envelope by the onRequest hook below instead of Fastify's own 503 body
    return503OnClosing: false,
    // the spec writes /sources/ and /users/me/sources/ with a slash; clients that drop it still arrive
    // (maxParamLength: room for an environment variable's name, /users/me/env/{name}: up to 128
    // characters, and a longer one still gets the route's 400 naming the field)
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    forceCloseConnections: "idle",
    ...connectionOptions(opts.limits),
    // every answer is the envelope, also the ones Node and the router give before a route runs
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnections(app.server, opts.limits, app.log);
  answerUnhandledRequests(app.server);

  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === "body" ? bodyAjv.compile(schema) : paramAjv.compile(schema),
  );
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, jsonBodyParser);
  // Graceful shutdown: a response finished after close() began tells its client to hang up, so
  // a keep-alive connection can't hold the server open once its request in flight is done.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_req, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
  // A request that arrives once close() began is turned away at once (the load balancer sends it
  // elsewhere); those in flight finish.
  app.addHook("onRequest", (_req, _reply, done) => done(closing ? new AppError("unavailable", "the service is shutting down") : undefined));
  app.addHook("onRequest", requireHost);
  installCors(app, opts.corsOrigins ?? []);
  // One line per API request (method, route pattern, status, ms: never the URL, which may carry a
  // key or an access_token) and the request metrics, in one hook.
  const metrics = opts.metrics;
  app.addHook("onResponse", (req, reply, done) => {
    const route: string | undefined = req.routeOptions.url;
    const ms = reply.elapsedTime;
    metrics?.request(route, req.method, reply.statusCode, ms / 1000);
    if (route === undefined || !unlogged(route)) {
      req.log.info({ method: req.method, route: route ?? "(unmatched)", status: reply.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    }
    done();
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addSchema(ErrorEnvelope);

  await app.register(swagger, {
    // shared schemas keep their own names in the document (ErrorEnvelope, not def-0)
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: "3.0.3",
      info: { title: "Tributary API", version: opts.version },
      servers: [{ url: "/" }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
  });

  app.get("/healthz", { schema: { hide: true } }, async (_req, reply) => {
    const degraded = await opts.health();
    reply.header("cache-control", "no-store");
    // degraded: still 200, so a load balancer keeps a node that serves most requests
    return degraded ? { ok: true, status: "degraded", reason: degraded } : { ok: true };
  });

  if (opts.metrics) metricsRoute(app, opts.metrics, opts.metricsToken);
  if (opts.dashboard) await app.register(dashboardRoutes());
  if (opts.dashboard && opts.dashboardSession) await dashboardSessionRoutes(app, core, opts.dashboardSession);

  await sseRoutes(app, core, { idleTimeoutMs: opts.limits.idleTimeoutMs });
  app.addHook("onSend", sandboxEndpointReplies);
  await app.register(ingressRoutes(core));
  await app.register(appEventRoutes(core));
  await app.register(runCallbackRoutes(core));
  await app.register(oauthCallbackRoutes(core));
  if (opts.clusterToken) await app.register(clusterRoutes(core, opts.clusterToken));

  await app.register(
    async (v1) => {
      v1.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
      await v1.register(async (api) => {
        api.addHook("onRequest", authHook(core.users));
        // a long save (big npm installs) is answered, not dropped by the idle timeout
        holdWhileWorking(api, opts.limits.idleTimeoutMs);
        api.addHook("onSend", filterHook);
        await api.register(userRoutes(core));
        await api.register(componentRoutes(core));
        await api.register(componentPropRoutes(core));
        await api.register(sourceRoutes(core));
        await api.register(subscriptionRoutes(core));
        await api.register(eventRoutes(core));
        await api.register(errorSummaryRoutes(core));
        await api.register(workflowRoutes(core));
        await api.register(runRoutes(core));
        await api.register(runsReplayRoutes(core));
        await api.register(stepTestRoutes(core));
        await api.register(webhookRoutes(core));
        await api.register(dataStoreRoutes(core));
      });
    },
    { prefix: "/v1" },
  );
  return app;
}
