import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { AppError, ERROR_STATUS, type ErrorCode } from "../lib/errors.ts";
import { envelope } from "./errors.ts";

// Requests Node answers before Fastify ever sees them: bytes that aren't HTTP/1.1, headers over
// the size limit, a client too slow to send its request, an Expect Node can't meet, CONNECT.
// Node's and Fastify's own answers there are text or a JSON of their own; these write the one
// envelope instead, straight on the socket, and never echo what the client sent.

interface ClientError extends Error {
  code?: string;
  /** the bytes the parser choked on (a Buffer), when it was a parse error */
  rawPacket?: unknown;
}

function classify(err: ClientError): [ErrorCode, string] {
  switch (err.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return ["request_timeout", "the request's headers or body took too long to arrive"];
    case "HPE_HEADER_OVERFLOW":
      return ["headers_too_large", "the request line and headers are larger than the service reads"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return ["payload_too_large", "the body's chunk extensions are too large"];
    default:
      return ["invalid_request", "the request is not valid HTTP/1.1"];
  }
}

/** A whole HTTP/1.1 reply that closes the connection; a reply to HEAD carries no body. */
export function rawErrorReply(code: ErrorCode, message: string, head: boolean): string {
  const status = ERROR_STATUS[code];
  const body = head ? "" : JSON.stringify(envelope(code, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    // the request may have been for an endpoint (its URL is unknown here): as every /http/ reply
    "Content-Security-Policy: sandbox\r\nX-Content-Type-Options: nosniff\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

// A parse error in the request line or headers leaves no parsed method behind; the bytes it failed
// on start with it when the request line was in them, as for every request that fits one read.
const isHead = (raw: unknown) => Buffer.isBuffer(raw) && raw.subarray(0, 5).toString("latin1") === "HEAD ";

/**
 * Writes `reply` and ends our side. Destroying at once would reset a connection whose peer is
 * still sending, and a reset can make its client drop the reply unread; so the socket lives on
 * until the peer hangs up too, or for a second at most.
 */
function replyAndClose(socket: Duplex, reply: string): void {
  socket.end(reply);
  setTimeout(() => socket.destroy(), 1000).unref();
}

const handled = new WeakSet<Duplex>();

/** Fastify's `clientErrorHandler` (Fastify calls it with the instance as `this`). */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, err: ClientError, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  // the parser reports again for every later chunk of the same connection; one answer is enough
  if (handled.has(socket)) return;
  handled.add(socket);
  this.log.debug({ err }, "client error");
  const s = socket as Duplex & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } | null };
  const response = s._httpMessage;
  const request = s.parser?.incoming;
  // A reply already on its way can't be followed by another one on the same connection; nor can
  // a request that was already answered before its body ended (a 401 or 413 sent without reading
  // it) get a second answer when the rest never comes. Node assigns each request its response on
  // arrival and detaches it once finished, so an unfinished request with none was answered.
  const answered = request && !request.complete && !response;
  if (!socket.writable || response?.headersSent || answered) {
    socket.destroy();
    return;
  }
  // A whole request's reply is still being made and the bytes after it were garbage: the reply
  // goes out first and alone, then the connection closes; the garbage gets no answer of its own.
  if (response && (response.req !== request || request?.complete)) {
    response.once("close", () => socket.destroy());
    return;
  }
  const [code, message] = classify(err);
  // the request in error is the parsed one when its headers were complete (its body is what failed)
  const head = request && !request.complete ? request.method === "HEAD" : isHead(err.rawPacket);
  replyAndClose(socket, rawErrorReply(code, message, head));
}

/**
 * onRequest: Node answers an HTTP/1.1 request without a Host header (RFC 9112 §3.2) with its own
 * empty 400; with that check turned off (requireHostHeader: false) it is made here, in the envelope.
 */
export function requireHost(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  if (req.raw.httpVersion === "1.1" && req.headers.host === undefined) return done(new AppError("invalid_request", "an HTTP/1.1 request needs a Host header"));
  done();
}

/**
 * Node answers an `Expect` other than `100-continue` with a bare 417 and CONNECT by dropping the
 * connection; both get the envelope instead.
 */
export function answerUnhandledRequests(server: Server): void {
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === "HEAD" ? "" : JSON.stringify(envelope("expectation_failed", "only Expect: 100-continue is supported"));
    res.writeHead(ERROR_STATUS.expectation_failed, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    res.end(body);
  });
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    replyAndClose(socket, rawErrorReply("not_found", "CONNECT is not supported", false));
  });
}
