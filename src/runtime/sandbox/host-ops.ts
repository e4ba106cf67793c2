// The runner's side of the sandbox globals that need no invocation: URL parsing, UTF-8, crypto.
// Arguments come from untrusted code, so every op checks their types before using them.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual, type BinaryToTextEncoding } from "node:crypto";
import { bufferSource } from "./buffer-source.ts";
import { webStreamsSource } from "./web-streams-source.ts";
import { cryptoOp } from "./crypto/keys.ts";
import { streamCipher } from "./crypto/stream.ts";

type Op = (...args: unknown[]) => unknown;

const ENCODINGS = ["hex", "base64", "base64url", "latin1", "binary", "utf8", "utf-8"];
/** Bounds what one sync call may make the runner allocate (the isolate's own limit doesn't apply here). */
const MAX_RANDOM_BYTES = 65536;

function str(v: unknown, what: string): string {
  if (typeof v !== "string") throw new TypeError(`${what} must be a string`);
  return v;
}

function bytes(v: unknown, what: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array`);
  return v;
}

function encoding(v: unknown): BufferEncoding {
  if (typeof v !== "string" || !ENCODINGS.includes(v.toLowerCase())) throw new TypeError(`unknown encoding "${String(v)}"`);
  return v.toLowerCase() as BufferEncoding;
}

function urlParts(u: URL) {
  const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = u;
  return { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash };
}

const SETTABLE = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];

function digest(kind: unknown, alg: unknown, key: unknown, chunks: unknown, enc: unknown): string | Uint8Array {
  const a = str(alg, "algorithm");
  const h =
    kind === "hmac" ? createHmac(a, typeof key === "string" ? key : bytes(key, "key")) : createHash(a);
  if (!Array.isArray(chunks)) throw new TypeError("chunks must be an array");
  for (const c of chunks) {
    if (Array.isArray(c)) h.update(str(c[0], "data"), encoding(c[1] ?? "utf8"));
    else h.update(bytes(c, "data"));
  }
  return enc === undefined || enc === "buffer" ? new Uint8Array(h.digest()) : h.digest(encoding(enc) as BinaryToTextEncoding);
}

export const HOST_OPS: Record<string, Op> = {
  url(input, base) {
    const u = URL.parse(str(input, "url"), base === undefined ? undefined : str(base, "base"));
    return u ? urlParts(u) : null;
  },
  urlSet(href, part, value) {
    const u = URL.parse(str(href, "href"));
    if (!u || typeof part !== "string" || !SETTABLE.includes(part)) return null;
    if (part === "href") {
      const next = URL.parse(str(value, "href"));
      return next ? urlParts(next) : null;
    }
    (u as unknown as Record<string, string>)[part] = str(value, part);
    return urlParts(u);
  },
  encode: (s) => new Uint8Array(Buffer.from(str(s, "input"), "utf8")),
  decode: (b, fatal, ignoreBOM) => new TextDecoder("utf-8", { fatal: fatal === true, ignoreBOM: ignoreBOM === true }).decode(bytes(b, "input")),
  bytesToString: (b, enc) => Buffer.from(bytes(b, "input")).toString(encoding(enc ?? "utf8")),
  bytesFromString: (s, enc) => new Uint8Array(Buffer.from(str(s, "input"), encoding(enc ?? "utf8"))),
  btoa(s) {
    const input = str(s, "input");
    if (/[\u0100-\uffff]/.test(input)) throw new Error("Invalid character");
    return Buffer.from(input, "latin1").toString("base64");
  },
  atob: (s) => Buffer.from(str(s, "input").replace(/\s+/g, ""), "base64").toString("latin1"),
  digest,
  randomUUID: () => randomUUID(),
  randomBytes(n) {
    if (!Number.isInteger(n) || (n as number) < 0 || (n as number) > MAX_RANDOM_BYTES) {
      throw new RangeError(`byte count must be an integer from 0 to ${MAX_RANDOM_BYTES}`);
    }
    return new Uint8Array(randomBytes(n as number));
  },
  // node:crypto's keys, signatures and key agreement (node/crypto-keys.js, crypto-dh.js)
  cryptoOp: (op, ...args) => (op === "stream" ? streamCipher(args[0], args[1], args[2], args[3], args[4]) : cryptoOp(op, args)),
  timingSafeEqual: (a, b) => timingSafeEqual(bytes(a, "a"), bytes(b, "b")),
  // the Buffer global's package, the first time a context touches Buffer (isolate/node-globals.js)
  bufferSource: () => bufferSource(),
  // the stream globals' package, the first time a context names one (isolate/web-streams.js)
  webStreamsSource: () => webStreamsSource(),
};
