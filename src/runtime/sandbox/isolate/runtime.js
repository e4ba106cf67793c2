// Runs INSIDE the isolate, before any component code: installs the globals a component sees
// (docs/writing-components.md, The sandbox) and the host object the provided modules capture while
// they evaluate (the runner deletes it before the component's own code runs).
import { createAxios } from "./axios.js";
import { fetch, Headers, Response } from "./fetch.js";
import { Blob, File, FormData, Request } from "./body.js";
import { call, callAsync, connect, entered, forgetPending } from "./host.js";
import { format } from "./inspect.js";
import { URL, URLSearchParams } from "./url.js";
import { installNodeGlobals } from "./node-globals.js";
import { setEnv } from "./process.js";
import { domException } from "./dom-exception.js";

const timers = new Map();
let nextTimer = 1;
let logsFull = false;

/**
 * Starts a clean slate for an invocation: the runner has cancelled the previous one's timers.
 * `envVersion`, `envJson`: its process.env (the owner's variables; process.js setEnv).
 */
export function resetInvocation(envVersion, envJson) {
  setEnv(envVersion, envJson);
  timers.clear();
  forgetPending();
  logsFull = false;
}

/** Called by the runner (as an entry into the isolate) when a timer is due. */
export function fireTimer(id, sync) {
  entered(sync);
  const t = timers.get(id);
  if (!t) return;
  if (!t.repeat) timers.delete(id);
  t.fn(...t.args);
}

function addTimer(fn, ms, args, repeat) {
  if (typeof fn !== "function") throw new TypeError('The "callback" argument must be of type function');
  const id = nextTimer++;
  timers.set(id, { fn, args, repeat });
  call("timer", id, Math.max(repeat ? 1 : 0, Number(ms) || 0), repeat);
  return id;
}

function clearTimer(id) {
  if (!timers.delete(id)) return;
  call("clearTimer", id);
}

function log(level) {
  return (...args) => {
    if (logsFull) return void call("log", level, null);
    logsFull = !call("log", level, format(args));
  };
}

function makeConsole() {
  const counts = new Map();
  const times = new Map();
  const c = {
    log: log("log"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    debug: log("debug"),
  };
  c.trace = (...args) => c.error("Trace: " + format(args));
  c.dir = (v) => c.log(v);
  c.table = (v) => c.log(v);
  c.assert = (ok, ...args) => {
    if (!ok) c.error("Assertion failed" + (args.length ? ": " + format(args) : ""));
  };
  c.count = (label = "default") => {
    counts.set(label, (counts.get(label) ?? 0) + 1);
    c.log(`${label}: ${counts.get(label)}`);
  };
  c.countReset = (label = "default") => counts.delete(label);
  c.time = (label = "default") => times.set(label, Date.now());
  c.timeLog = (label = "default", ...args) => c.log(`${label}: ${Date.now() - (times.get(label) ?? Date.now())}ms`, ...args);
  c.timeEnd = (label = "default") => {
    c.timeLog(label);
    times.delete(label);
  };
  c.group = c.groupCollapsed = c.groupEnd = () => {};
  return c;
}

function structuredCloneImpl(value) {
  const seen = new Map();
  const clone = (v) => {
    if (typeof v === "function" || typeof v === "symbol") {
      throw domException(`${String(v)} could not be cloned.`, "DataCloneError");
    }
    if (typeof v !== "object" || v === null) return v;
    if (seen.has(v)) return seen.get(v);
    let out;
    if (v instanceof Date) out = new Date(v.getTime());
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = v.slice(0);
    else if (ArrayBuffer.isView(v)) out = new v.constructor(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
    else if (v instanceof Map) {
      out = new Map();
      seen.set(v, out);
      for (const [k, x] of v) out.set(clone(k), clone(x));
      return out;
    } else if (v instanceof Set) {
      out = new Set();
      seen.set(v, out);
      for (const x of v) out.add(clone(x));
      return out;
    } else if (v instanceof Error) {
      out = new Error(v.message);
      out.name = v.name;
      out.stack = v.stack;
    } else {
      out = Array.isArray(v) ? [] : {};
      seen.set(v, out);
      for (const k of Object.keys(v)) out[k] = clone(v[k]);
      return out;
    }
    seen.set(v, out);
    return out;
  };
  return clone(value);
}

class TextEncoder {
  get encoding() {
    return "utf-8";
  }
  encode(input = "") {
    return call("encode", String(input));
  }
  // as much of `input` as fits in `dest`, whole characters only (the AWS SDK's encoders use it)
  encodeInto(input, dest) {
    const bytes = call("encode", String(input));
    let written = Math.min(bytes.length, dest.length);
    while (written > 0 && written < bytes.length && (bytes[written] & 0xc0) === 0x80) written--;
    dest.set(bytes.subarray(0, written));
    let read = 0;
    for (let i = 0; i < written; i++) if ((bytes[i] & 0xc0) !== 0x80) read += bytes[i] >= 0xf0 ? 2 : 1;
    return { read, written };
  }
}

// The encodings Node's TextDecoder is asked for in practice: UTF-8 (the host decodes it), UTF-16
// (got 12+ makes a "utf-16le" decoder when it loads) and windows-1252, which the WHATWG labels
// latin1, iso-8859-1 and ascii name. Labels as the Encoding Standard lists them.
const ENCODING_LABELS = {
  "utf-8": ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"],
  "utf-16le": ["utf-16le", "utf-16", "ucs-2", "unicode", "csunicode", "iso-10646-ucs-2", "unicodefeff"],
  "utf-16be": ["utf-16be", "unicodefffe"],
  "windows-1252": ["windows-1252", "latin1", "iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "ascii", "us-ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-ir-100", "x-cp1252", "ansi_x3.4-1968"],
};
// bytes 0x80-0x9f of windows-1252 (the rest are the same code points)
const CP1252_HIGH = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

class TextDecoder {
  #encoding;
  #fatal;
  #ignoreBOM;
  // UTF-16 across `{stream: true}` calls: a byte or a high surrogate waiting for its other half
  #pending = [];
  #started = false;
  constructor(label = "utf-8", options = {}) {
    const wanted = String(label).trim().toLowerCase();
    this.#encoding = Object.keys(ENCODING_LABELS).find((e) => ENCODING_LABELS[e].includes(wanted));
    if (!this.#encoding) throw new RangeError(`The "${label}" encoding is not supported`);
    this.#fatal = Boolean(options.fatal);
    this.#ignoreBOM = Boolean(options.ignoreBOM);
  }
  get encoding() {
    return this.#encoding;
  }
  get fatal() {
    return this.#fatal;
  }
  get ignoreBOM() {
    return this.#ignoreBOM;
  }
  decode(input, options = {}) {
    const bytes = input === undefined ? new Uint8Array(0) : input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    if (this.#encoding === "utf-8") return call("decode", bytes, this.#fatal, this.#ignoreBOM);
    if (this.#encoding === "windows-1252") {
      let out = "";
      for (let i = 0; i < bytes.length; i++) out += bytes[i] >= 0x80 && bytes[i] < 0xa0 ? CP1252_HIGH[bytes[i] - 0x80] : String.fromCharCode(bytes[i]);
      return out;
    }
    return this.#utf16(bytes, Boolean(options?.stream));
  }
  #utf16(bytes, stream) {
    const all = this.#pending.length ? [...this.#pending, ...bytes] : bytes;
    const le = this.#encoding === "utf-16le";
    const units = [];
    let i = 0;
    for (; i + 1 < all.length; i += 2) units.push(le ? all[i] | (all[i + 1] << 8) : (all[i] << 8) | all[i + 1]);
    const odd = i < all.length ? [all[i]] : [];
    // a high surrogate at the end may be completed by the next chunk
    const keepHigh = stream && units.length && units.at(-1) >= 0xd800 && units.at(-1) <= 0xdbff;
    const held = keepHigh ? units.pop() : undefined;
    this.#pending = stream ? [...(held === undefined ? [] : le ? [held & 0xff, held >> 8] : [held >> 8, held & 0xff]), ...odd] : [];
    const bad = () => {
      if (this.#fatal) throw new TypeError("The encoded data was not valid for encoding " + this.#encoding);
      return "\ufffd";
    };
    let out = "";
    for (let k = 0; k < units.length; k++) {
      const u = units[k];
      if (u >= 0xd800 && u <= 0xdbff) {
        const next = units[k + 1];
        if (next >= 0xdc00 && next <= 0xdfff) {
          out += String.fromCharCode(u, next);
          k++;
        } else out += bad();
      } else if (u >= 0xdc00 && u <= 0xdfff) out += bad();
      else out += String.fromCharCode(u);
    }
    if (!stream && odd.length) out += bad();
    const first = !this.#started;
    this.#started = stream && (this.#started || out.length > 0);
    return first && !this.#ignoreBOM && out.charCodeAt(0) === 0xfeff ? out.slice(1) : out;
  }
}

/** `envVersion`, `envJson`: process.env for the component's top level (the first invocation's). */
export function install(hostRef, envVersion, envJson) {
  connect(hostRef);
  setEnv(envVersion, envJson);
  const g = globalThis;
  // WebAssembly memory is allocated outside the isolate's heap, so the memory limit does not
  // bound it (one invocation grew a Memory to 4 GiB): components get no WebAssembly.
  delete g.WebAssembly;
  g.console = makeConsole();
  g.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
  g.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
  g.clearTimeout = g.clearInterval = clearTimer;
  g.setImmediate = (fn, ...args) => addTimer(fn, 0, args, false);
  g.clearImmediate = clearTimer;
  g.queueMicrotask = (fn) => void Promise.resolve().then(fn);
  g.URL = URL;
  g.URLSearchParams = URLSearchParams;
  g.TextEncoder = TextEncoder;
  g.TextDecoder = TextDecoder;
  g.structuredClone = structuredCloneImpl;
  g.fetch = fetch;
  g.Headers = Headers;
  g.Response = Response;
  g.Request = Request;
  g.Blob = Blob;
  g.File = File;
  g.FormData = FormData;
  g.btoa = (s) => call("btoa", String(s));
  g.atob = (s) => call("atob", String(s));
  g.crypto = {
    randomUUID: () => call("randomUUID"),
    getRandomValues(array) {
      const bytes = call("randomBytes", array.byteLength);
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(bytes);
      return array;
    },
  };
  installNodeGlobals(g);
  g.defineComponent = (c) => c;
  g.defineSource = (c) => c;
  Object.defineProperty(g, "__tributaryHost", {
    configurable: true,
    value: Object.freeze({
      call,
      // calls the runner answers later (node/net.js's sockets, through provided/sockets.js)
      callAsync,
      fetch,
      URL,
      URLSearchParams,
      axios: createAxios(),
    }),
  });
}
