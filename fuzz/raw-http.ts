import { connect } from "node:net";

// One HTTP/1.1 exchange over a raw TCP socket: the request goes out byte for byte as given (Node's
// own client refuses malformed methods, paths and headers, which are the point here), and the
// reply is read back with its framing checked, so a reply that carries more than it says (a body
// on a HEAD reply, bytes past Content-Length) shows up as `extra`.

export interface RawReply {
  status: number;
  /** lower-cased names; repeated headers joined with ", " */
  headers: Record<string, string>;
  body: Buffer;
  /** bytes after the framed reply, before the server closed (should always be empty) */
  extra: Buffer;
}

export interface RawResult {
  reply?: RawReply;
  /** why there is no reply: the server closed or reset first, or it didn't answer in time */
  failure?: "closed" | "reset" | "timeout" | "malformed";
  /** everything received, for the report */
  received: Buffer;
}

export interface RawOptions {
  host: string;
  port: number;
  timeoutMs: number;
  /** the request is HEAD: the reply has no body whatever its headers say */
  head?: boolean;
  /** half-close after writing (the client has nothing more to send) */
  endAfterWrite?: boolean;
}

type Framing = { kind: "none" } | { kind: "length"; n: number } | { kind: "chunked" } | { kind: "close" } | { kind: "stream" };

interface Head {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
}

function parseHead(buf: Buffer, from: number): Head | "incomplete" | "malformed" {
  const end = buf.indexOf("\r\n\r\n", from, "latin1");
  if (end < 0) return buf.length - from > 256 * 1024 ? "malformed" : "incomplete";
  const lines = buf.subarray(from, end).toString("latin1").split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]);
  if (!m) return "malformed";
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(":");
    if (i <= 0) return "malformed";
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(m[1]), headers, bodyStart: end + 4 };
}

function framing(head: Head, isHead: boolean): Framing {
  if (isHead || head.status === 204 || head.status === 304) return { kind: "none" };
  if (/^text\/event-stream/i.test(head.headers["content-type"] ?? "")) return { kind: "stream" };
  if (/chunked/i.test(head.headers["transfer-encoding"] ?? "")) return { kind: "chunked" };
  const cl = head.headers["content-length"];
  if (cl !== undefined) return /^\d+$/.test(cl) ? { kind: "length", n: Number(cl) } : { kind: "close" };
  return { kind: "close" };
}

/** The end of a chunked body starting at `from` and the body itself, or undefined if not all here. */
function dechunk(buf: Buffer, from: number): { end: number; body: Buffer } | "incomplete" | "malformed" {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const eol = buf.indexOf("\r\n", at, "latin1");
    if (eol < 0) return "incomplete";
    const size = parseInt(buf.subarray(at, eol).toString("latin1").split(";")[0], 16);
    if (!Number.isFinite(size) || size < 0) return "malformed";
    if (size === 0) {
      const end = buf.indexOf("\r\n\r\n", eol, "latin1");
      return end < 0 ? "incomplete" : { end: end + 4, body: Buffer.concat(parts) };
    }
    if (buf.length < eol + 2 + size + 2) return "incomplete";
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

export function rawRequest(request: Buffer | string, opts: RawOptions): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = connect({ host: opts.host, port: opts.port });
    let buf: Buffer = Buffer.alloc(0);
    let settled = false;
    // where the final (non-1xx) reply starts, once known, and where its framed body ends
    let head: Head | undefined;
    let done: { body: Buffer; end: number } | undefined;

    const finish = (result: RawResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const replyNow = (extraFrom?: number): RawReply => ({
      status: head!.status,
      headers: head!.headers,
      body: done!.body,
      extra: extraFrom === undefined ? Buffer.alloc(0) : buf.subarray(extraFrom),
    });
    const timer = setTimeout(() => {
      // a complete reply on a connection the server keeps open is fine: we just stop listening
      if (done) finish({ reply: replyNow(done.end), received: buf });
      else finish({ failure: "timeout", received: buf });
    }, opts.timeoutMs);

    const advance = (): void => {
      let from = 0;
      for (;;) {
        if (!head) {
          const h = parseHead(buf, from);
          if (h === "incomplete") return;
          if (h === "malformed") return finish({ failure: "malformed", received: buf });
          // 100 Continue and other interim replies precede the real one
          if (h.status >= 100 && h.status < 200 && h.status !== 101) {
            from = h.bodyStart;
            continue;
          }
          head = h;
        }
        if (done) return;
        const f = framing(head, opts.head === true);
        if (f.kind === "none") done = { body: Buffer.alloc(0), end: head.bodyStart };
        else if (f.kind === "stream") {
          done = { body: buf.subarray(head.bodyStart), end: buf.length };
          return finish({ reply: replyNow(), received: buf });
        } else if (f.kind === "length") {
          if (buf.length >= head.bodyStart + f.n) done = { body: buf.subarray(head.bodyStart, head.bodyStart + f.n), end: head.bodyStart + f.n };
        } else if (f.kind === "chunked") {
          const d = dechunk(buf, head.bodyStart);
          if (d === "malformed") return finish({ failure: "malformed", received: buf });
          if (d !== "incomplete") done = d;
        }
        // complete: wait for the server's close if it said it would close, to see any extra bytes
        if (done && !/close/i.test(head.headers.connection ?? "")) return finish({ reply: replyNow(done.end), received: buf });
        return;
      }
    };

    socket.on("data", (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      advance();
    });
    socket.on("end", () => {
      if (head && !done && framing(head, opts.head === true).kind === "close") {
        done = { body: buf.subarray(head.bodyStart), end: buf.length };
      }
      if (done) finish({ reply: replyNow(done.end), received: buf });
      else finish({ failure: "closed", received: buf });
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      // a reset after a complete reply (the server closed with our bytes unread) still has the reply
      if (done) finish({ reply: replyNow(done.end), received: buf });
      else finish({ failure: err.code === "ECONNRESET" || err.code === "EPIPE" ? "reset" : "closed", received: buf });
    });
    socket.on("connect", () => {
      if (opts.endAfterWrite) socket.end(request);
      else socket.write(request);
    });
  });
}
