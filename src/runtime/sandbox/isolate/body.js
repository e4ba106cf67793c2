// Runs INSIDE the isolate: Blob, File, FormData and Request, the web body types code passes to
// fetch (and packages written for browsers or Node 18+ expect as globals). Plain data holders:
// fetch turns them into bytes (FormData as multipart/form-data) before the runner sends them.
import { call } from "./host.js";
import { Headers } from "./fetch.js";
import { webStreams } from "./web-streams.js";

function bytesOf(part) {
  if (part instanceof Blob) return part.bytesSync();
  if (typeof part === "string") return call("encode", part);
  if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  return call("encode", String(part));
}

function concat(chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export class Blob {
  #bytes;
  constructor(parts = [], options = {}) {
    this.#bytes = concat([...parts].map(bytesOf));
    this.type = String(options.type ?? "").toLowerCase();
  }
  get size() {
    return this.#bytes.length;
  }
  bytesSync() {
    return this.#bytes.slice();
  }
  async bytes() {
    return this.#bytes.slice();
  }
  async arrayBuffer() {
    return this.#bytes.slice().buffer;
  }
  async text() {
    return call("decode", this.#bytes, false, false);
  }
  stream() {
    const bytes = this.#bytes.slice();
    return new (webStreams().ReadableStream)({
      start(controller) {
        if (bytes.length > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  slice(start = 0, end = this.size, type = "") {
    return new Blob([this.#bytes.slice(start, end)], { type });
  }
}

export class File extends Blob {
  constructor(parts, name, options = {}) {
    super(parts, options);
    this.name = String(name);
    this.lastModified = options.lastModified ?? Date.now();
  }
}

export class FormData {
  #entries = [];
  append(name, value, filename) {
    this.#entries.push([String(name), entryValue(value, filename)]);
  }
  set(name, value, filename) {
    this.delete(name);
    this.append(name, value, filename);
  }
  get(name) {
    return this.#entries.find(([k]) => k === String(name))?.[1] ?? null;
  }
  getAll(name) {
    return this.#entries.filter(([k]) => k === String(name)).map(([, v]) => v);
  }
  has(name) {
    return this.#entries.some(([k]) => k === String(name));
  }
  delete(name) {
    this.#entries = this.#entries.filter(([k]) => k !== String(name));
  }
  *entries() {
    yield* this.#entries;
  }
  *keys() {
    for (const [k] of this.#entries) yield k;
  }
  *values() {
    for (const [, v] of this.#entries) yield v;
  }
  forEach(fn, thisArg) {
    for (const [k, v] of this.#entries) fn.call(thisArg, v, k, this);
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}

function entryValue(value, filename) {
  if (value instanceof Blob) return value instanceof File && filename === undefined ? value : new File([value], filename ?? "blob", { type: value.type });
  return String(value);
}

const quote = (s) => s.replace(/"/g, "%22").replace(/\r?\n|\r/g, " ");

/** A FormData as a multipart/form-data body and its content type. */
export function multipart(form) {
  const boundary = "----tributary" + call("randomUUID").replace(/-/g, "");
  const chunks = [];
  for (const [name, value] of form) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"`;
    if (value instanceof File) head += `; filename="${quote(value.name)}"\r\nContent-Type: ${value.type || "application/octet-stream"}`;
    chunks.push(call("encode", head + "\r\n\r\n"), value instanceof File ? value.bytesSync() : call("encode", value), call("encode", "\r\n"));
  }
  chunks.push(call("encode", `--${boundary}--\r\n`));
  return { body: concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

export class Request {
  #body;
  constructor(input, init = {}) {
    const from = input instanceof Request ? input : undefined;
    this.url = String(from ? from.url : input);
    this.method = String(init.method ?? from?.method ?? "GET").toUpperCase();
    this.headers = new Headers(init.headers ?? from?.headers);
    this.#body = init.body ?? from?.body ?? null;
    this.signal = init.signal ?? from?.signal;
    this.redirect = init.redirect ?? from?.redirect ?? "follow";
  }
  get body() {
    return this.#body;
  }
  clone() {
    return new Request(this);
  }
  async arrayBuffer() {
    return this.#body === null ? new ArrayBuffer(0) : bytesOf(this.#body instanceof Blob ? this.#body : this.#body).buffer;
  }
  async text() {
    return this.#body === null ? "" : typeof this.#body === "string" ? this.#body : call("decode", bytesOf(this.#body), false, false);
  }
  async json() {
    return JSON.parse(await this.text());
  }
}
