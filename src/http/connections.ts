import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { HttpLimits } from "../config.ts";

// How long a connection may take, and how many there may be. Without these a client that sends
// its headers and then trickles the body (or never finishes the headers) holds a connection
// forever, and enough of them take every file descriptor (slowloris). A long response is not
// limited: SSE streams and customResponse runs answer for as long as they need; the idle timeout
// only ends a connection on which nothing moved either way for that long.

/** Node checks for expired requests on this period; a quarter of the shortest limit, 5 s at most. */
export function checkingIntervalMs(limits: HttpLimits): number {
  return Math.max(50, Math.min(5_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
}

/** The part of Fastify's options that sets the limits on the node:http server it creates. */
export function connectionOptions(limits: HttpLimits) {
  return {
    // Fastify sets server.requestTimeout from this after creating the server
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // socket inactivity, both directions (Fastify calls server.setTimeout with it)
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
      // checked in an onRequest hook instead, so the 400 is the envelope (client-errors.ts)
      requireHostHeader: false,
    },
  };
}

/** answers a request before Fastify routes it, or returns false to let Fastify have it */
export type FirstLook = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Fastify's serverFactory: the node:http server Fastify would make from connectionOptions, with
 * `first` looking at each request before Fastify does (early-refusal.ts refuses there for a
 * fraction of what a refusal after routing costs).
 */
export function serverWithFirstLook(limits: HttpLimits, first: FirstLook) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void): Server => {
    const server = createServer(connectionOptions(limits).http, (req, res) => {
      if (!first(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    server.requestTimeout = limits.requestTimeoutMs;
    server.setTimeout(limits.idleTimeoutMs);
    return server;
  };
}

/** Connections past the cap are closed as they arrive (Node's `maxConnections`), with a warning a minute at most. */
export function capConnections(server: Server, limits: HttpLimits, log: FastifyBaseLogger): void {
  server.maxConnections = limits.maxConnections;
  let dropped = 0;
  let warnedAt = 0;
  server.on("drop", () => {
    dropped++;
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    log.warn({ dropped, maxConnections: limits.maxConnections }, "connections refused: the connection cap (TRIBUTARY_HTTP_MAX_CONNECTIONS) is reached");
    dropped = 0;
  });
}

const WRITES = new Set(["POST", "PUT", "PATCH"]);

/**
 * The idle timeout measures a client's silence, but once a write of the API has arrived whole
 * the silence is the server's: a save that installs and bundles big packages works for minutes
 * (bounded by its own limit, TRIBUTARY_SAVE_TIMEOUT_MS), and its client must get the answer, not
 * a connection dropped while the save may still finish. So the idle timer is off from when the
 * body is in until the answer starts; it is on again for the answer and for what follows on the
 * connection (a client that doesn't read the answer is idle again).
 */
export function holdWhileWorking(api: FastifyInstance, idleTimeoutMs: number): void {
  const timer = (req: { method: string; raw: IncomingMessage }, ms: number) => {
    // app.inject's requests have no real socket
    if (WRITES.has(req.method) && typeof req.raw.socket?.setTimeout === "function") req.raw.socket.setTimeout(ms);
  };
  api.addHook("preHandler", (req, _reply, done) => {
    timer(req, 0);
    done();
  });
  api.addHook("onSend", (req, _reply, payload, done) => {
    timer(req, idleTimeoutMs);
    done(null, payload);
  });
}
