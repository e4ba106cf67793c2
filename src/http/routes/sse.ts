import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { emitterChannel, type BusMessage } from "../../bus/port.ts";
import { parseEventId } from "../../core/event-render.ts";
import { authHook } from "../auth.ts";
import type { EventKey } from "../../store/port.ts";

// how long a new stream waits for the bus to confirm its subscription before it opens anyway
const READY_WAIT_MS = 5000;

// GET /sources/{id}/sse (docs/api.md, "Live streams (SSE)"), and GET /workflows/{id}/sse the same way for a workflow. Subscribes to the bus before replaying from the store,
// so nothing committed in between is missed; every message is sent only if its id is newer
// than the last one sent, so nothing is sent twice or out of order either.

const HEARTBEAT_MS = 15_000;

export interface SseOptions {
  /**
   * The server's idle limit: a stream is a response that may be silent for long, so its heartbeat
   * comes well within it (an idle connection is ended, a live stream must not be).
   */
  idleTimeoutMs: number;
}
const REPLAY_PAGE = 100;
// a client that reads slower than events arrive is cut off rather than buffered without end
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const newer = (a: EventKey, b: EventKey | undefined) => !b || a.ms > b.ms || (a.ms === b.ms && a.n > b.n);

export async function sseRoutes(app: FastifyInstance, core: Core, opts: SseOptions): Promise<void> {
  const heartbeatMs = Math.max(10, Math.min(HEARTBEAT_MS, Math.floor(opts.idleTimeoutMs / 3)));
  const open = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const end of [...open]) end();
  });

  await app.register(async (scope) => {
    scope.addHook("onRequest", authHook(core.users, true));
    const owned = {
      sources: (req: FastifyRequest, id: string) => core.sources.get(req.user, id),
      workflows: (req: FastifyRequest, id: string) => core.workflows.get(req.user, id),
    };
    for (const [kind, check] of Object.entries(owned)) {
      scope.get(`/${kind}/:id/sse`, { schema: { hide: true } }, (req, reply) => stream(core, check, open, heartbeatMs, req, reply));
    }
  });
}

/** `owned` rejects (404) unless the caller owns the emitter `id`. */
async function stream(
  core: Core,
  owned: (req: FastifyRequest, id: string) => Promise<unknown>,
  open: Set<() => void>,
  heartbeatMs: number,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { id } = req.params as { id: string };
  const query = req.query as { event_name?: string };
  await owned(req, id);
  const eventName = query.event_name === "default" ? "" : (query.event_name ?? "");
  const lastHeader = req.headers["last-event-id"];
  let last: EventKey | undefined = typeof lastHeader === "string" ? parseEventId(lastHeader.trim()) : undefined;

  const headers = {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-accel-buffering": "no",
  };
  // HEAD: the stream's headers and nothing else (Node sends no headers for a body-less reply
  // until it ends, so a HEAD that went on as a stream would never be answered)
  if (req.method === "HEAD") {
    reply.headers(headers).status(200).send();
    return;
  }
  reply.hijack();
  const res = reply.raw;

  let replaying = true;
  const held: BusMessage[] = [];
  let ended = false;
  let corked = false;
  const send = (m: BusMessage) => {
    const key = parseEventId(m.id)!;
    if (!newer(key, last)) return;
    last = key;
    // a commit publishes its rows in one go: corked until the tick ends, they leave in one write
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    res.write(`id: ${m.id}\ndata: ${m.item}\n\n`);
    if (res.writableLength > MAX_BUFFERED_BYTES) end();
  };
  // The response's uncork writes the chunk's size line, its data and the closing CRLF to the
  // socket one by one (Node's chunked encoding): three syscalls per message and stream, a fifth
  // of the loop with 100 live streams. With the socket corked around it they leave in one writev.
  const uncork = () => {
    corked = false;
    const socket = res.socket;
    socket?.cork();
    res.uncork();
    socket?.uncork();
  };
  const onMessage = (m: BusMessage) => {
    if (m.eventName !== eventName) return;
    if (replaying) held.push(m);
    else send(m);
  };
  let heartbeat: NodeJS.Timeout | undefined = undefined;
  const unsubscribe = core.runtime.bus.subscribe(emitterChannel(id), onMessage, () => end());
  function end() {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    open.delete(end);
    res.end();
  }
  // registered before waiting on the bus: a client gone meanwhile (or a shutdown) ends it too
  open.add(end);
  res.on("close", end);
  // the handshake says the stream is live: with several nodes, once Redis has the subscription
  // (bounded: with Redis away the stream opens anyway, and catches up on reconnect as ever)
  await Promise.race([core.runtime.bus.ready(emitterChannel(id)), new Promise((r) => setTimeout(r, READY_WAIT_MS).unref())]);
  if (ended || res.destroyed) return end();
  res.writeHead(200, { ...headers, connection: "keep-alive" });
  res.write(":sse-handshake\n\n");
  heartbeat = setInterval(() => res.write(":sse-handshake\n\n"), heartbeatMs);

  try {
    if (last) {
      const since = last;
      for (let from = since; !ended; ) {
        const rows = await core.events.since(id, eventName, from, REPLAY_PAGE);
        for (const r of rows) send({ eventName, id: `${r.ms}-${r.n}`, item: r.item });
        if (rows.length < REPLAY_PAGE) break;
        from = rows[rows.length - 1];
      }
    }
  } catch (err) {
    req.log.error({ err }, "SSE replay failed");
    end();
    return;
  }
  replaying = false;
  for (const m of held.splice(0)) send(m);
}
