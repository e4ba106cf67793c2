// node:http and node:https inside the sandbox, clients only: request() and get() carried over the
// sandbox's fetch, so SDKs written against Node's http (axios's Node adapter, got-style clients)
// reach the network through the same guard as fetch. The body is sent whole when the request
// ends; the response streams out of a Readable once it has arrived. Bundled into components.
import { Readable, Writable } from "readable-stream";
import { EventEmitter } from "events";
import { Buffer } from "buffer";

export const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];
export const STATUS_CODES = {
  200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
  304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
  409: "Conflict", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error",
  502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
};

// an EventEmitter, as Node's: SDKs listen on their agent (apify's client: agent.on("free"))
export class Agent extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = options;
    this.keepAlive = Boolean(options.keepAlive);
  }
  destroy() {}
}
export const globalAgent = new Agent();

// fetch has already decoded the body: these headers would make a client decode it again
const DROPPED = new Set(["content-encoding", "content-length", "transfer-encoding"]);

class IncomingMessage extends Readable {
  constructor(res, url) {
    super();
    this.statusCode = res.status;
    this.statusMessage = res.statusText || STATUS_CODES[res.status] || "";
    this.headers = {};
    this.rawHeaders = [];
    for (const [k, v] of res.headers) {
      if (DROPPED.has(k)) continue;
      this.headers[k] = v;
      this.rawHeaders.push(k, v);
    }
    this.url = url;
    this.httpVersion = "1.1";
    this.complete = false;
    this.socket = { remoteAddress: undefined, destroy() {} };
  }
  _read() {}
  setTimeout() {
    return this;
  }
}

function optionsOf(input, options, protocol) {
  if (typeof input === "string" || input instanceof URL) {
    const u = new URL(String(input));
    return { ...urlOptions(u), ...options };
  }
  return { protocol, ...input };
}

function urlOptions(u) {
  return { protocol: u.protocol, hostname: u.hostname, port: u.port, path: u.pathname + u.search, auth: u.username ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined };
}

export class ClientRequest extends Writable {
  #opts;
  #chunks = [];
  #headers = {};
  #timer;
  #cancelled = false;

  constructor(opts, callback) {
    // finishing the body must not end the request: the answer comes after it
    super({ autoDestroy: false });
    this.#opts = opts;
    this.method = String(opts.method || "GET").toUpperCase();
    this.path = opts.path || "/";
    this.aborted = false;
    for (const [k, v] of Object.entries(opts.headers || {})) if (v !== undefined) this.#headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v);
    if (opts.auth && !this.#headers.authorization) this.#headers.authorization = "Basic " + Buffer.from(opts.auth).toString("base64");
    if (typeof callback === "function") this.once("response", callback);
    if (opts.timeout) this.setTimeout(opts.timeout);
    if (opts.signal) opts.signal.addEventListener("abort", () => this.destroy(new Error("The operation was aborted")));
  }

  setHeader(name, value) {
    this.#headers[String(name).toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    return this;
  }
  getHeader(name) {
    return this.#headers[String(name).toLowerCase()];
  }
  removeHeader(name) {
    delete this.#headers[String(name).toLowerCase()];
  }
  getHeaders() {
    return { ...this.#headers };
  }
  setTimeout(ms, callback) {
    if (typeof callback === "function") this.once("timeout", callback);
    clearTimeout(this.#timer);
    if (ms > 0) this.#timer = setTimeout(() => this.emit("timeout"), ms);
    return this;
  }
  setNoDelay() {}
  setSocketKeepAlive() {}
  flushHeaders() {}
  abort() {
    this.aborted = true;
    this.destroy();
  }

  _write(chunk, encoding, done) {
    this.#chunks.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(chunk));
    done();
  }

  _final(done) {
    done();
    this.#send();
  }

  _destroy(err, done) {
    clearTimeout(this.#timer);
    this.#cancelled = true;
    done(err);
  }

  #send() {
    const o = this.#opts;
    const protocol = o.protocol || "http:";
    const host = o.hostname || (o.host || "localhost").replace(/:\d+$/, "");
    const port = o.port ? `:${o.port}` : "";
    const url = `${protocol}//${host.includes(":") ? `[${host}]` : host}${port}${this.path}`;
    const body = this.#chunks.length > 0 && this.method !== "GET" && this.method !== "HEAD" ? Buffer.concat(this.#chunks) : undefined;
    globalThis
      .fetch(url, { method: this.method, headers: this.#headers, body: body && new Uint8Array(body), redirect: "manual" })
      .then(async (res) => {
        // destroyed (aborted, timed out) while the request was out: nobody wants the answer
        if (this.#cancelled) return;
        const msg = new IncomingMessage(res, this.path);
        this.emit("response", msg);
        const bytes = new Uint8Array(await res.arrayBuffer());
        msg.complete = true;
        if (bytes.length > 0) msg.push(Buffer.from(bytes));
        msg.push(null);
      })
      .catch((e) => {
        if (!this.#cancelled) this.destroy(e instanceof Error ? e : new Error(String(e)));
      })
      .finally(() => clearTimeout(this.#timer));
  }
}

function makeRequest(protocol) {
  return function request(input, options, callback) {
    if (typeof options === "function") [callback, options] = [options, undefined];
    return new ClientRequest(optionsOf(input, options, protocol), callback);
  };
}

export function createServer() {
  throw new Error("servers are not available in the sandbox: use the source's $.interface.http prop");
}

// Names clients import from node:http besides request/get (got, undici-style code): present so
// the code loads; servers stay unavailable.
export class Server {
  constructor() {
    createServer();
  }
}
export class OutgoingMessage extends Writable {}
export class ServerResponse extends OutgoingMessage {}
export const maxHeaderSize = 16384;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export function validateHeaderName(name) {
  if (typeof name !== "string" || !TOKEN.test(name)) throw new TypeError(`Header name must be a valid HTTP token ["${name}"]`);
}
export function validateHeaderValue(name, value) {
  if (value === undefined) throw new TypeError(`Invalid value "${value}" for header "${name}"`);
  if (/[^\t\x20-\x7e\x80-\xff]/.test(String(value))) throw new TypeError(`Invalid character in header content ["${name}"]`);
}

export function httpModule(protocol) {
  const request = makeRequest(protocol);
  const get = (input, options, callback) => {
    const req = request(input, options, callback);
    req.end();
    return req;
  };
  return {
    request, get, Agent, globalAgent, ClientRequest, IncomingMessage, METHODS, STATUS_CODES, createServer,
    Server, OutgoingMessage, ServerResponse, maxHeaderSize, validateHeaderName, validateHeaderValue,
  };
}
