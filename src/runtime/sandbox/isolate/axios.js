// Runs INSIDE the isolate: the common call forms of axios over the sandbox fetch. Served to
// components as the "axios" module and used by @pipedream/platform's axios($, config).
import { fetch, Headers } from "./fetch.js";
import { URLSearchParams } from "./url.js";

export class AxiosError extends Error {
  constructor(message, code, config, request, response) {
    super(message);
    this.name = "AxiosError";
    this.isAxiosError = true;
    this.code = code;
    this.config = config;
    this.request = request;
    this.response = response;
    this.status = response?.status;
  }
  toJSON() {
    return { name: this.name, message: this.message, code: this.code, status: this.status };
  }
}

const BODYLESS = ["get", "head", "delete", "options"];

function mergeConfig(a = {}, b = {}) {
  return { ...a, ...b, headers: { ...(a.headers ?? {}), ...(b.headers ?? {}) } };
}

function serializeParams(params, serializer) {
  if (typeof serializer === "function") return serializer(params);
  if (typeof serializer?.serialize === "function") return serializer.serialize(params);
  if (params instanceof URLSearchParams) return params.toString();
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    const add = (key, x) => out.append(key, x instanceof Date ? x.toISOString() : typeof x === "object" ? JSON.stringify(x) : x);
    if (Array.isArray(v)) for (const x of v) add(`${k}[]`, x);
    else add(k, v);
  }
  return out.toString();
}

function buildUrl(config) {
  let url = String(config.url ?? "");
  if (config.baseURL && !/^[a-z][a-z\d+\-.]*:/i.test(url)) {
    url = url ? String(config.baseURL).replace(/\/+$/, "") + "/" + url.replace(/^\/+/, "") : String(config.baseURL);
  }
  if (config.params) {
    const query = serializeParams(config.params, config.paramsSerializer);
    if (query) url = url.replace(/#.*$/, "") + (url.includes("?") ? "&" : "?") + query;
  }
  return url;
}

function encodeBody(data, headers) {
  if (data === undefined || data === null) return undefined;
  if (typeof data === "string" || data instanceof URLSearchParams || data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    return data;
  }
  const type = headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) return serializeParams(data);
  if (!type) headers.set("content-type", "application/json");
  return JSON.stringify(data);
}

/**
 * `responseType: "stream"`: the body's web ReadableStream, which stream.pipeline takes as it is
 * (Pipedream's docs pipe a download into fs.createWriteStream("/tmp/...")), with a Node-style
 * `pipe(destination)` beside it. Its chunks are Buffers when they reach a Node stream.
 */
function streamOf(body) {
  const stream = body ?? new globalThis.ReadableStream({ start: (c) => c.close() });
  Object.defineProperty(stream, "pipe", {
    configurable: true,
    value(destination, options = {}) {
      const reader = stream.getReader();
      const drained = () => new Promise((resolve) => destination.once("drain", resolve));
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const chunk = globalThis.Buffer.from(value.buffer, value.byteOffset, value.byteLength);
          if (destination.write(chunk) === false) await drained();
        }
        if (options.end !== false) destination.end();
      })().catch((e) => {
        if (typeof destination.destroy === "function") destination.destroy(e);
        else destination.emit?.("error", e);
      });
      return destination;
    },
  });
  return stream;
}

function decodeBody(text, config) {
  if (config.responseType === "text" || text === "") return text;
  try {
    return JSON.parse(text);
  } catch (e) {
    if (config.responseType === "json" && config.transitional?.silentJSONParsing === false) throw e;
    return text;
  }
}

function withTimeout(promise, config) {
  const ms = Number(config.timeout);
  if (!(ms > 0)) return promise;
  return new Promise((resolve, reject) => {
    const timer = globalThis.setTimeout(() => reject(new AxiosError(`timeout of ${ms}ms exceeded`, "ECONNABORTED", config)), ms);
    promise.then(
      (v) => (globalThis.clearTimeout(timer), resolve(v)),
      (e) => (globalThis.clearTimeout(timer), reject(e)),
    );
  });
}

async function send(config) {
  const method = String(config.method ?? "get").toLowerCase();
  const headers = new Headers(config.headers);
  if (!headers.has("accept")) headers.set("accept", "application/json, text/plain, */*");
  if (config.auth) {
    const { username = "", password = "" } = config.auth;
    headers.set("authorization", "Basic " + globalThis.btoa(unescape(encodeURIComponent(`${username}:${password}`))));
  }
  // as Node's axios: `data` goes with any method but HEAD (a DELETE with a body is common)
  const body = method === "head" ? undefined : encodeBody(config.data, headers);
  let res;
  try {
    res = await fetch(buildUrl(config), { method: method.toUpperCase(), headers, body });
  } catch (e) {
    throw new AxiosError(e.message, "ERR_NETWORK", config);
  }
  // "arraybuffer" is a Buffer, as Node's axios gives it (helper_functions' download-file-to-tmp
  // calls resp.toString("base64") before writing the file to /tmp); "stream" the body as a stream
  const data =
    config.responseType === "arraybuffer"
      ? globalThis.Buffer.from(await res.arrayBuffer())
      : config.responseType === "stream"
        ? streamOf(res.body)
        : decodeBody(method === "head" ? "" : await res.text(), config);
  const response = { data, status: res.status, statusText: res.statusText, headers: Object.fromEntries(res.headers), config, request: {} };
  const validate = config.validateStatus === undefined ? (s) => s >= 200 && s < 300 : config.validateStatus;
  if (validate && !validate(res.status)) {
    const code = res.status >= 500 ? "ERR_BAD_RESPONSE" : "ERR_BAD_REQUEST";
    throw new AxiosError(`Request failed with status code ${res.status}`, code, config, {}, response);
  }
  return response;
}

function interceptorSet() {
  const handlers = [];
  return {
    handlers,
    use(fulfilled, rejected) {
      handlers.push({ fulfilled, rejected });
      return handlers.length - 1;
    },
    eject(id) {
      handlers[id] = null;
    },
    clear() {
      handlers.length = 0;
    },
  };
}

export function createAxios(defaults = {}) {
  const interceptors = { request: interceptorSet(), response: interceptorSet() };
  async function request(configOrUrl, maybeConfig) {
    let config = typeof configOrUrl === "string" ? { ...maybeConfig, url: configOrUrl } : { ...configOrUrl };
    config = mergeConfig(instance.defaults, config);
    for (const h of interceptors.request.handlers) if (h?.fulfilled) config = await h.fulfilled(config);
    let result = withTimeout(send(config), config);
    for (const h of interceptors.response.handlers) if (h) result = result.then(h.fulfilled, h.rejected);
    return result;
  }
  const instance = (configOrUrl, config) => request(configOrUrl, config);
  instance.request = request;
  for (const m of BODYLESS) instance[m] = (url, config) => request({ ...config, url, method: m });
  for (const m of ["post", "put", "patch"]) instance[m] = (url, data, config) => request({ ...config, url, data, method: m });
  instance.defaults = mergeConfig({ timeout: 0 }, defaults);
  instance.interceptors = interceptors;
  instance.create = (config) => createAxios(mergeConfig(instance.defaults, config));
  instance.isAxiosError = (e) => Boolean(e && e.isAxiosError);
  instance.AxiosError = AxiosError;
  instance.all = (promises) => Promise.all(promises);
  instance.spread = (fn) => (arr) => fn(...arr);
  instance.default = instance;
  return instance;
}
