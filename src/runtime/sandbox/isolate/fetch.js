// Runs INSIDE the isolate: fetch, Headers and Response. The request itself is made by the runner
// (which enforces the address guard, redirects, the body cap and the invocation's deadline); this
// side only normalizes arguments and wraps the answer.
import { call, callAsync } from "./host.js";
import { URLSearchParams } from "./url.js";
import { Blob, FormData, multipart, Request } from "./body.js";
import { webStreams } from "./web-streams.js";

export class Headers {
  #map = new Map();

  constructor(init) {
    if (init instanceof Headers) {
      for (const [k, values] of init.#map) this.#map.set(k, [...values]);
    } else if (init && typeof init === "object") {
      const pairs = typeof init[Symbol.iterator] === "function" ? init : Object.entries(init);
      for (const [k, v] of pairs) this.append(k, v);
    }
  }

  append(name, value) {
    const k = String(name).toLowerCase();
    const values = this.#map.get(k) ?? [];
    values.push(String(value));
    this.#map.set(k, values);
  }
  set(name, value) {
    this.#map.set(String(name).toLowerCase(), [String(value)]);
  }
  get(name) {
    const values = this.#map.get(String(name).toLowerCase());
    return values ? values.join(", ") : null;
  }
  getSetCookie() {
    return [...(this.#map.get("set-cookie") ?? [])];
  }
  has(name) {
    return this.#map.has(String(name).toLowerCase());
  }
  delete(name) {
    this.#map.delete(String(name).toLowerCase());
  }
  forEach(fn, thisArg) {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
  *entries() {
    for (const k of [...this.#map.keys()].sort()) yield [k, this.get(k)];
  }
  *keys() {
    for (const [k] of this.entries()) yield k;
  }
  *values() {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}

export function decodeUtf8(bytes) {
  return call("decode", bytes, false, false);
}

/** a Response of what the runner fetched (sandbox/fetch.ts forIsolate): its body as bytes, or as text */
let fromRunner;

export class Response {
  /** the body's bytes; undefined while it is held as #text (made from it when code asks for bytes) */
  #bytes;
  /** the body as the runner sent it when it is UTF-8 text: text() and json() read it as it is */
  #text;
  #used = false;
  #empty;
  #stream;

  static {
    fromRunner = (raw) => {
      const res = new Response(null, raw);
      res.#empty = false;
      if (typeof raw.text === "string") {
        res.#text = raw.text;
        res.#bytes = undefined;
      } else res.#bytes = raw.body;
      return res;
    };
  }

  constructor(body = null, init = {}) {
    this.#empty = body === null || body === undefined;
    this.#bytes = this.#empty ? new Uint8Array(0) : toBytes(body);
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? "";
    this.headers = new Headers(init.headers);
    this.ok = this.status >= 200 && this.status < 300;
    this.url = init.url ?? "";
    this.redirected = init.redirected ?? false;
    this.type = "basic";
  }

  get bodyUsed() {
    return this.#used;
  }
  // The body as a ReadableStream, made only when code asks for it (the streams are loaded then):
  // the bytes are all here already, so it gives them as one chunk.
  get body() {
    if (this.#empty) return null;
    this.#stream ??= new (webStreams().ReadableStream)({
      pull: (controller) => {
        if (!this.#used) {
          const bytes = this.#take();
          if (bytes.length > 0) controller.enqueue(bytes.slice());
        }
        controller.close();
      },
      // pulled only when read: having looked at res.body leaves text() and json() usable
    }, { highWaterMark: 0 });
    return this.#stream;
  }
  #take() {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#bytesNow();
  }
  #bytesNow() {
    if (this.#bytes === undefined) this.#bytes = call("encode", this.#text);
    return this.#bytes;
  }
  async bytes() {
    return this.#take().slice();
  }
  async arrayBuffer() {
    return this.#take().slice().buffer;
  }
  async text() {
    if (this.#bytes === undefined && !this.#used) {
      this.#used = true;
      return this.#text;
    }
    return decodeUtf8(this.#take());
  }
  async json() {
    return JSON.parse(await this.text());
  }
  clone() {
    if (this.#used) throw new TypeError("Response.clone: Body has already been consumed.");
    const r = new Response(this.#bytesNow().slice(), this);
    r.url = this.url;
    r.redirected = this.redirected;
    return r;
  }
}

function toBytes(body) {
  if (typeof body === "string") return call("encode", body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  return call("encode", String(body));
}

export async function fetch(input, init = {}) {
  const isRequest = input instanceof Request || (input && typeof input === "object" && typeof input.url === "string" && !("href" in input));
  const url = String(isRequest ? input.url : input);
  const method = String(init.method ?? (isRequest ? input.method : undefined) ?? "GET").toUpperCase();
  const headers = new Headers(init.headers ?? (isRequest ? input.headers : undefined));
  let body = init.body ?? (input instanceof Request ? input.body : undefined);
  if (body === null) body = undefined;
  if (body instanceof FormData) {
    const form = multipart(body);
    headers.set("content-type", form.type);
    body = form.body;
  } else if (body instanceof Blob) {
    if (body.type && !headers.has("content-type")) headers.set("content-type", body.type);
    body = body.bytesSync();
  } else if (body instanceof URLSearchParams) {
    if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    body = body.toString();
  } else if (body !== undefined && typeof body !== "string") {
    body = toBytes(body);
  } else if (typeof body === "string" && !headers.has("content-type")) {
    headers.set("content-type", "text/plain;charset=UTF-8");
  }
  // Unlike Node's fetch, a GET may carry a body here: npm's axios runs on this fetch in the
  // sandbox (it has no http adapter here) and sends a GET's `data`, as its Node adapter does.
  if (body !== undefined && method === "HEAD") {
    throw new TypeError("Request with HEAD method cannot have body.");
  }
  const raw = await callAsync("fetch", { url, method, headers: [...headers], body });
  return fromRunner(raw);
}
