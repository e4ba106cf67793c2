// A generated request, and its bytes on the wire. Everything is kept as written (a method
// that isn't a token, a header with a CR in it, a Content-Length that lies) because sending what
// a well-behaved client never would is the point.

export interface Case {
  /** which generator made it, for the report's grouping */
  label: string;
  method: string;
  /** the request-target exactly as sent */
  target: string;
  /** "HTTP/1.1" unless a case says otherwise */
  version?: string;
  /** in order, duplicates allowed; Host and Connection: close are added unless present */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** the whole request as bytes, instead of the fields above */
  raw?: Buffer;
  /** the reply to this has no body (HEAD) */
  head: boolean;
  /** half-close after writing: the request is incomplete and the server should notice */
  endAfterWrite?: boolean;
  /** don't add Host / Connection */
  bare?: boolean;
  /** several requests in one write: the replies after the first are expected, not extra bytes */
  pipelined?: boolean;
}

export function toBytes(c: Case): Buffer {
  if (c.raw) return c.raw;
  const headers = [...c.headers];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!c.bare) {
    if (!has("host")) headers.unshift(["Host", "fuzz.test"]);
    if (!has("connection")) headers.push(["Connection", "close"]);
  }
  const head = `${c.method} ${c.target} ${c.version ?? "HTTP/1.1"}\r\n` + headers.map(([n, v]) => `${n}: ${v}\r\n`).join("") + "\r\n";
  // latin1 keeps each char a byte as written; a test of UTF-8 bytes writes them as latin1 chars
  return c.body ? Buffer.concat([Buffer.from(head, "latin1"), c.body]) : Buffer.from(head, "latin1");
}

/** UTF-8 bytes as a latin1 string, so toBytes writes them unchanged (non-ASCII in a path or header). */
export const utf8AsLatin1 = (s: string) => Buffer.from(s, "utf8").toString("latin1");

/** A JSON body with its (correct) Content-Type and Content-Length headers. */
export function jsonBody(text: string): { headers: Array<[string, string]>; body: Buffer } {
  const body = Buffer.from(text, "utf8");
  return { headers: [["Content-Type", "application/json"], ["Content-Length", String(body.length)]], body };
}
