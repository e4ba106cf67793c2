// Runs INSIDE the isolate: WHATWG URL (parsed by the runner's own URL, so it is the real thing)
// and URLSearchParams (form-urlencoded, plain JS).
import { call } from "./host.js";

const PARTS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
const urls = new WeakMap();
let linkParams;
let reloadParams;

function encode(s) {
  return encodeURIComponent(String(s).toWellFormed())
    .replace(/%20/g, "+")
    .replace(/[!'()~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

function decode(s) {
  s = s.replace(/\+/g, " ");
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-7][0-9a-fA-F])/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  }
}

function parseQuery(query) {
  const list = [];
  for (const part of query.replace(/^\?/, "").split("&")) {
    if (part === "") continue;
    const i = part.indexOf("=");
    list.push(i < 0 ? [decode(part), ""] : [decode(part.slice(0, i)), decode(part.slice(i + 1))]);
  }
  return list;
}

function parse(input, base) {
  return call("url", String(input), base === undefined ? undefined : String(base));
}

export class URLSearchParams {
  #list = [];
  #url = null;

  static {
    linkParams = (params, url) => {
      params.#url = url;
    };
    reloadParams = (params, search) => {
      params.#list = parseQuery(search);
    };
  }

  constructor(init = "") {
    if (init instanceof URLSearchParams) {
      this.#list = init.#list.map(([k, v]) => [k, v]);
    } else if (typeof init === "object" && init !== null) {
      if (typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          const kv = [...pair];
          if (kv.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple");
          this.#list.push([String(kv[0]), String(kv[1])]);
        }
      } else {
        for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]);
      }
    } else {
      this.#list = parseQuery(String(init));
    }
  }

  #changed() {
    if (this.#url) urls.get(this.#url).parts = call("urlSet", this.#url.href, "search", this.toString());
  }

  get size() {
    return this.#list.length;
  }
  append(name, value) {
    this.#list.push([String(name), String(value)]);
    this.#changed();
  }
  delete(name, value) {
    name = String(name);
    this.#list = this.#list.filter(([k, v]) => k !== name || (value !== undefined && v !== String(value)));
    this.#changed();
  }
  get(name) {
    const hit = this.#list.find(([k]) => k === String(name));
    return hit ? hit[1] : null;
  }
  getAll(name) {
    return this.#list.filter(([k]) => k === String(name)).map(([, v]) => v);
  }
  has(name, value) {
    return this.#list.some(([k, v]) => k === String(name) && (value === undefined || v === String(value)));
  }
  set(name, value) {
    name = String(name);
    const i = this.#list.findIndex(([k]) => k === name);
    if (i < 0) this.#list.push([name, String(value)]);
    else this.#list = this.#list.filter(([k], j) => k !== name || j === i).map((kv, j) => (j === i ? [name, String(value)] : kv));
    this.#changed();
  }
  sort() {
    this.#list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.#changed();
  }
  forEach(fn, thisArg) {
    for (const [k, v] of this.#list) fn.call(thisArg, v, k, this);
  }
  *entries() {
    for (const [k, v] of this.#list) yield [k, v];
  }
  *keys() {
    for (const [k] of this.#list) yield k;
  }
  *values() {
    for (const [, v] of this.#list) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  toString() {
    return this.#list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
  }
  get [Symbol.toStringTag]() {
    return "URLSearchParams";
  }
}

export class URL {
  constructor(input, base) {
    const parts = parse(input, base);
    if (!parts) {
      const e = new TypeError("Invalid URL");
      e.code = "ERR_INVALID_URL";
      e.input = String(input);
      throw e;
    }
    urls.set(this, { parts, params: null });
  }
  static canParse(input, base) {
    return parse(input, base) !== null;
  }
  static parse(input, base) {
    return parse(input, base) ? new URL(input, base) : null;
  }
  get searchParams() {
    const s = urls.get(this);
    if (!s.params) {
      s.params = new URLSearchParams(s.parts.search);
      linkParams(s.params, this);
    }
    return s.params;
  }
  toString() {
    return urls.get(this).parts.href;
  }
  toJSON() {
    return urls.get(this).parts.href;
  }
  get [Symbol.toStringTag]() {
    return "URL";
  }
}

for (const part of PARTS) {
  Object.defineProperty(URL.prototype, part, {
    enumerable: true,
    configurable: true,
    get() {
      return urls.get(this).parts[part];
    },
    set(value) {
      if (part === "origin") return;
      const s = urls.get(this);
      const parts = call("urlSet", s.parts.href, part, String(value));
      if (!parts) throw new TypeError("Invalid URL");
      s.parts = parts;
      if (s.params) reloadParams(s.params, parts.search);
    },
  });
}
