import type { FieldProblem } from "../lib/errors.ts";

// An `http_request` prop's configured value (Pipedream's "HTTP request configuration"), checked at
// save so a step or source fails then with a clear message rather than at its first run. The
// shapes taken are those the isolate sends (runtime/sandbox/isolate/http-request.js):
//   {url, method?, headers?, params?, body?, auth?}
// headers and params: Pipedream's form, [{name, value, disabled?}], or a plain object of values;
// body: Pipedream's {contentType?, type|mode?: "raw"|"fields", raw?, fields?}, a string, or JSON;
// auth: {type: "none"} | {type: "basic", username, password?} | {type: "bearer", token}.

export const HTTP_REQUEST = "http_request";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const FIELDS = ["url", "method", "headers", "params", "body", "auth"];
const BODY_FIELDS = ["contentType", "type", "mode", "raw", "fields"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const scalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Pipedream's body form: an object of its own fields only (another object is JSON to send) */
const isBodyForm = (b: Record<string, unknown>) =>
  Object.keys(b).length > 0 && Object.keys(b).every((k) => BODY_FIELDS.includes(k)) && ["contentType", "raw", "fields", "mode"].some((k) => Object.hasOwn(b, k));

function namedValues(v: unknown, field: string, problems: FieldProblem[]): void {
  if (v === undefined || v === null) return;
  if (Array.isArray(v)) {
    v.forEach((p, i) => {
      if (!isObject(p) || typeof p.name !== "string" || !(p.value === undefined || p.value === null || scalar(p.value))) {
        problems.push({ field: `${field}[${i}]`, message: "must be {name: string, value: string}" });
      }
    });
  } else if (!isObject(v) || !Object.values(v).every((x) => x === undefined || x === null || scalar(x))) {
    problems.push({ field, message: "must be [{name, value}] or an object of string values" });
  }
}

function body(v: unknown, field: string, problems: FieldProblem[]): void {
  if (!isObject(v) || !isBodyForm(v)) return; // a string, or JSON to send as it is
  const mode = v.mode ?? v.type;
  if (mode !== undefined && mode !== "raw" && mode !== "fields") problems.push({ field: `${field}.mode`, message: 'must be "raw" or "fields"' });
  if (v.contentType !== undefined && typeof v.contentType !== "string") problems.push({ field: `${field}.contentType`, message: "must be a string" });
  if (v.raw !== undefined && typeof v.raw !== "string") problems.push({ field: `${field}.raw`, message: "must be a string (the body as sent)" });
  namedValues(v.fields, `${field}.fields`, problems);
}

function auth(v: unknown, field: string, problems: FieldProblem[]): void {
  if (v === undefined || v === null) return;
  if (!isObject(v)) return void problems.push({ field, message: 'must be {type: "basic", username, password} or {type: "bearer", token}' });
  const type = v.type ?? (Object.hasOwn(v, "token") ? "bearer" : Object.hasOwn(v, "username") ? "basic" : "none");
  if (type === "basic") {
    if (typeof v.username !== "string") problems.push({ field: `${field}.username`, message: "must be a string for basic auth" });
    if (v.password !== undefined && typeof v.password !== "string") problems.push({ field: `${field}.password`, message: "must be a string" });
  } else if (type === "bearer") {
    if (typeof v.token !== "string" || v.token === "") problems.push({ field: `${field}.token`, message: "must be a string for bearer auth" });
  } else if (type !== "none") problems.push({ field: `${field}.type`, message: 'must be "none", "basic" or "bearer"' });
}

/** The problems of an http_request prop's value at `field` (none: it can be sent). */
export function httpRequestProblems(v: unknown, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isObject(v)) return [{ field, message: "must be an object: {url, method, headers, params, body, auth}" }];
  for (const k of Object.keys(v)) if (!FIELDS.includes(k)) problems.push({ field: `${field}.${k}`, message: `is not a field of an HTTP request (${FIELDS.join(", ")})` });
  if (typeof v.url !== "string" || !/^https?:\/\/./i.test(v.url) || !URL.canParse(v.url)) {
    problems.push({ field: `${field}.url`, message: "must be an http:// or https:// URL" });
  }
  if (v.method !== undefined && (typeof v.method !== "string" || !METHODS.includes(v.method.toUpperCase()))) {
    problems.push({ field: `${field}.method`, message: `must be one of ${METHODS.join(", ")}` });
  }
  namedValues(v.headers, `${field}.headers`, problems);
  namedValues(v.params, `${field}.params`, problems);
  body(v.body, `${field}.body`, problems);
  auth(v.auth, `${field}.auth`, problems);
  return problems;
}
