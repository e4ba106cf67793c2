// Runs INSIDE the isolate: the value of an `http_request` prop (Pipedream's "HTTP request
// configuration"), its configured fields plus `execute()`, which sends the request through the
// sandbox's own axios over fetch (so the runner's address guard, deadline and body cap apply) and
// gives back what axios would: {status, statusText, headers, data}; a status outside 2xx throws an
// AxiosError as axios does. The configured shape is checked at save (core/http-request-prop.ts):
// headers and params as [{name, value, disabled?}] (Pipedream's form) or a plain object; body as
// Pipedream's {contentType, type|mode: "raw"|"fields", raw?, fields?}, a string, or JSON;
// auth as {type: "basic", username, password} or {type: "bearer", token}.
import { createAxios } from "./axios.js";
import { URL, URLSearchParams } from "./url.js";

const { keys, entries, hasOwn, freeze } = Object;
const { isArray } = Array;
const isObject = (v) => typeof v === "object" && v !== null && !isArray(v);
const BODY_FIELDS = ["contentType", "type", "mode", "raw", "fields"];
// made once, before any component code runs: a component can't swap what execute() sends with
const axios = createAxios();

/** [name, value] pairs of Pipedream's [{name, value, disabled}] list or of a plain object */
function pairs(list) {
  if (isArray(list)) {
    return list.filter((p) => isObject(p) && p.disabled !== true && typeof p.name === "string" && p.name !== "").map((p) => [p.name, p.value ?? ""]);
  }
  return isObject(list) ? entries(list).filter(([, v]) => v !== undefined && v !== null) : [];
}

/** Pipedream's body form: an object of its own fields only (any other object is JSON to send) */
export const isBodyForm = (body) =>
  isObject(body) && keys(body).length > 0 && keys(body).every((k) => BODY_FIELDS.includes(k)) && ["contentType", "raw", "fields", "mode"].some((k) => hasOwn(body, k));

function bodyOf(body, headers) {
  if (body === undefined || body === null) return undefined;
  if (!isBodyForm(body)) return body;
  const contentType = typeof body.contentType === "string" ? body.contentType : "";
  if (contentType === "none") return undefined;
  const named = (k) => keys(headers).some((h) => h.toLowerCase() === k);
  if (contentType && !named("content-type")) headers["content-type"] = contentType;
  const mode = body.mode ?? body.type;
  if (mode === "fields" || (mode === undefined && isArray(body.fields))) {
    const fields = pairs(body.fields);
    if (contentType.includes("x-www-form-urlencoded")) return new URLSearchParams(fields.map(([k, v]) => [k, String(v)])).toString();
    return Object.fromEntries(fields);
  }
  return typeof body.raw === "string" && body.raw !== "" ? body.raw : undefined;
}

async function execute(config) {
  if (typeof config.url !== "string" || config.url === "") throw new TypeError("this http_request prop has no url: configure it with {url, method, ...}");
  const url = new URL(config.url);
  for (const [k, v] of pairs(config.params)) url.searchParams.append(k, String(v));
  const headers = {};
  for (const [k, v] of pairs(config.headers)) headers[k] = String(v);
  const auth = isObject(config.auth) ? config.auth : {};
  const type = auth.type ?? (hasOwn(auth, "token") ? "bearer" : hasOwn(auth, "username") ? "basic" : "none");
  if (type === "bearer") headers.authorization = `Bearer ${auth.token ?? ""}`;
  const method = typeof config.method === "string" && config.method !== "" ? config.method.toUpperCase() : "GET";
  const request = { url: url.href, method, headers, data: bodyOf(config.body, headers) };
  if (type === "basic") request.auth = { username: String(auth.username ?? ""), password: String(auth.password ?? "") };
  const res = await axios.request(request);
  // the response only: its config holds the request's credentials, never to land in a step's result
  return { status: res.status, statusText: res.statusText, headers: res.headers, data: res.data };
}

/** `this.<prop>` of an http_request prop configured as `value` (else its default) */
export function makeHttpRequest(value) {
  const config = isObject(value) ? value : {};
  return freeze({ ...config, execute: () => execute(config) });
}
