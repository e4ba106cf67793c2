// Source of the "@pipedream/platform" module inside the isolate. Must stay self-contained: it is
// compiled as an ES module in every isolate, with no imports of its own.
export const DEFAULT_POLLING_SOURCE_TIMER_INTERVAL = 900;

export class ConfigurationError extends Error {
  constructor(message) {
    super(message);
    this.name = "ConfigurationError";
  }
}

export function defineComponent(component) {
  return component;
}

export function defineSource(component) {
  return component;
}

export function defineApp(app) {
  return app;
}

export function defineAction(action) {
  return action;
}

const client = globalThis.__tributaryHost.axios;

// Pipedream's signature: axios($, config), resolving to the response data (the whole response
// with returnFullResponse). `$` is the component's `this`; nothing of it is needed here.
export async function axios(_$, config = {}) {
  const { returnFullResponse, debug: _debug, ...rest } = config;
  const response = await client.request(rest);
  return returnFullResponse ? response : response.data;
}

const hostFetch = globalThis.__tributaryHost.fetch;

// A file's bytes as a stream, the way Pipedream's helpers hand them out: the object is async
// iterable (for await ... of) and speaks the Readable events a consumer listens to ("data",
// "end", "error") and pipe(). Only http(s) URLs: there is no file system in the sandbox.
class FileStream {
  #bytes;
  #listeners = { data: [], end: [], error: [] };
  #started = false;

  constructor(bytes) {
    this.#bytes = bytes;
    this.readable = true;
  }

  async *[Symbol.asyncIterator]() {
    for (const chunk of await this.#bytes) yield chunk;
  }

  on(event, fn) {
    (this.#listeners[event] ??= []).push(fn);
    if (event === "data" && !this.#started) {
      this.#started = true;
      this.#bytes.then(
        (chunks) => {
          for (const c of chunks) for (const f of this.#listeners.data) f(c);
          for (const f of this.#listeners.end) f();
        },
        (e) => {
          for (const f of this.#listeners.error) f(e);
        },
      );
    }
    return this;
  }

  once(event, fn) {
    return this.on(event, fn);
  }

  pipe(dest) {
    this.on("data", (c) => dest.write(c));
    this.on("end", () => dest.end?.());
    return dest;
  }
}

async function download(pathOrUrl) {
  if (!/^https?:\/\//i.test(String(pathOrUrl))) {
    throw new ConfigurationError(`getFileStream: only http(s) URLs can be read here, not ${JSON.stringify(String(pathOrUrl))}`);
  }
  const res = await hostFetch(String(pathOrUrl));
  if (!res.ok) throw new Error(`getFileStream: ${pathOrUrl} answered ${res.status}`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

export async function getFileStream(pathOrUrl) {
  const { bytes } = await download(pathOrUrl);
  return new FileStream(Promise.resolve([bytes]));
}

export async function getFileStreamAndMetadata(pathOrUrl) {
  const { res, bytes } = await download(pathOrUrl);
  const name = decodeURIComponent(new URL(String(pathOrUrl)).pathname.split("/").pop() || "file");
  return {
    stream: new FileStream(Promise.resolve([bytes])),
    metadata: { size: bytes.byteLength, contentType: res.headers.get("content-type") ?? undefined, name, lastModified: undefined },
  };
}

// Pipedream's helper for OAuth 1.0a apps: the request data a signer needs from an axios config.
export function transformConfigForOauth(config = {}) {
  const url = new URL(config.url, config.baseURL);
  for (const [k, v] of Object.entries(config.params ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
  const data = config.data && typeof config.data === "object" && !(config.data instanceof Uint8Array) ? config.data : undefined;
  // the method as given (Pipedream's is "get" when none is), not upper-cased: signers lower-case it themselves or compare as written
  return { method: config.method ?? "get", url: url.href, data };
}

// What Pipedream's database apps spread into their methods (`...sqlProp.methods,
// ...sqlProxy.methods`): the methods every SQL app must define, failing until it does, as the
// real package's do. An app overrides the ones it implements.
const notImplemented = (name) =>
  function () {
    throw new ConfigurationError(`${name} not implemented`);
  };

export const sqlProp = {
  methods: {
    executeQueryAdapter: notImplemented("executeQueryAdapter"),
    getSchema: notImplemented("getSchema"),
  },
};

export const sqlProxy = {
  methods: {
    getClientConfiguration: notImplemented("getClientConfiguration"),
    executeQuery: notImplemented("executeQuery"),
    proxyAdapter: notImplemented("proxyAdapter"),
  },
};

// JSON.stringify that skips what it can't serialize (cycles) instead of throwing, as the real
// package's helpers do; cloneSafe is its parse.
export function jsonStringifySafe(v, seen) {
  try {
    return JSON.stringify(v);
  } catch {
    const set = new Set(seen || []);
    if (set.has(v)) return undefined;
    set.add(v);
    if (typeof v !== "object" || v === null) return undefined;
    const parts = [];
    if (Array.isArray(v)) {
      for (const el of v) {
        const s = jsonStringifySafe(el, set);
        if (s) parts.push(s);
      }
      return `[${parts.join(",")}]`;
    }
    for (const k in v) {
      const s = jsonStringifySafe(v[k], set);
      if (s) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    return `{${parts.join(",")}}`;
  }
}

export function cloneSafe(o) {
  const s = jsonStringifySafe(o);
  return s ? JSON.parse(s) : null;
}
