import { parse as parseQuery, stringify as stringifyQuery } from "node:querystring";
import { httpEvent } from "../../core/flow/ingress.ts";
import { AppError, invalid, type FieldProblem } from "../../lib/errors.ts";
import { jsonTooDeep } from "../../lib/json-shape.ts";
import { BODY_LIMIT, MAX_BODY_DEPTH } from "./ingress.ts";

// POST /workflows/{id}/run with {"http": {method, path, headers, body}} (docs/api.md, "Run an
// HTTP workflow now"): the run's steps.trigger.event is built by the same function that builds a
// real request's (httpEvent), so steps written for real requests read it the same way.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const HTTP_KEYS = new Set(["method", "path", "headers", "body"]);
// a header name as RFC 9110 has it (a token)
const HEADER_NAME = /^[\w!#$%&'*+.^`|~-]+$/;
const MAX_PATH = 2048;
const MAX_HEADERS = 100;

export interface RunNowRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  bodyRaw: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `http` checked field by field: every problem named in one 400 (field `http.method`, ...). */
export function checkHttpForm(http: unknown): RunNowRequest {
  if (!isObject(http)) throw invalid("http must be an object {method, path, headers, body}", [{ field: "http", message: "must be an object" }]);
  const problems: FieldProblem[] = [];
  for (const k of Object.keys(http)) if (!HTTP_KEYS.has(k)) problems.push({ field: `http.${k}`, message: "is not a field of http (method, path, headers, body)" });
  const method = http.method === undefined ? "POST" : http.method;
  if (typeof method !== "string" || !(HTTP_METHODS as readonly string[]).includes(method.toUpperCase())) {
    problems.push({ field: "http.method", message: `must be one of ${HTTP_METHODS.join(", ")}` });
  }
  const path = http.path === undefined ? "/" : http.path;
  if (typeof path !== "string" || !path.startsWith("/") || path.length > MAX_PATH) {
    problems.push({ field: "http.path", message: `must be a string starting with "/" (at most ${MAX_PATH} characters)` });
  }
  const headers: Record<string, string> = {};
  if (http.headers !== undefined) {
    if (!isObject(http.headers)) problems.push({ field: "http.headers", message: "must be an object of strings, e.g. {\"x-token\": \"abc\"}" });
    else if (Object.keys(http.headers).length > MAX_HEADERS) problems.push({ field: "http.headers", message: `must have at most ${MAX_HEADERS} headers` });
    else {
      for (const [name, value] of Object.entries(http.headers)) {
        if (!HEADER_NAME.test(name)) problems.push({ field: `http.headers.${name}`, message: "is not a valid header name" });
        else if (typeof value !== "string") problems.push({ field: `http.headers.${name}`, message: "must be a string" });
        else headers[name.toLowerCase()] = value;
      }
    }
  }
  if (problems.length > 0) throw invalid(`invalid http: ${problems[0].field} ${problems[0].message}`, problems);
  // a string body is sent as it is; anything else as its JSON, as `curl -d '{...}'` would
  const bodyRaw = http.body === undefined || http.body === null ? "" : typeof http.body === "string" ? http.body : JSON.stringify(http.body);
  if (typeof http.body !== "string" && bodyRaw !== "" && headers["content-type"] === undefined) headers["content-type"] = "application/json";
  const bytes = Buffer.byteLength(bodyRaw);
  if (bytes > BODY_LIMIT) throw new AppError("payload_too_large", `http.body is ${bytes} bytes: an endpoint takes at most ${BODY_LIMIT} bytes (512 KiB)`, [{ field: "http.body", message: `must be at most ${BODY_LIMIT} bytes` }]);
  if (jsonTooDeep(bodyRaw, MAX_BODY_DEPTH)) throw invalid(`http.body is nested deeper than ${MAX_BODY_DEPTH} levels`, [{ field: "http.body", message: `must be nested at most ${MAX_BODY_DEPTH} levels deep` }]);
  const [pathOnly, search = ""] = (path as string).split(/\?(.*)/s, 2);
  return { method: (method as string).toUpperCase(), path: pathOnly, query: { ...parseQuery(search) }, headers, bodyRaw };
}

/**
 * The event a request to `endpointUrl` would give: method, path, query, headers (lower-cased,
 * with the host and content-length a real one carries), bodyRaw, body, url, client_ip.
 */
export function runNowEvent(req: RunNowRequest, endpointUrl: string, clientIp: string) {
  const endpoint = new URL(endpointUrl);
  const search = stringifyQuery(req.query as Record<string, string | string[]>);
  const url = `${endpointUrl.replace(/\/+$/, "")}${req.path === "/" ? "" : req.path}${search ? `?${search}` : ""}`;
  const body = Buffer.from(req.bodyRaw, "utf8");
  const headers: Record<string, string> = { host: endpoint.host, ...(body.length > 0 ? { "content-length": String(body.length) } : {}), ...req.headers };
  return httpEvent({ method: req.method, path: req.path, query: req.query, headers, body, contentType: headers["content-type"], url, clientIp });
}
