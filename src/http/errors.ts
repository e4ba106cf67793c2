import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldProblem } from "../lib/errors.ts";
import { MAX_STEP_CODE_BYTES } from "../core/workflows/workflow-input.ts";

// The one envelope: {"error": {code, message, details?}}. Anything that isn't an AppError or a
// request problem Fastify recognised is a 500 whose details go to the log, never the client.

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ["unsupported_media_type", "send the body as JSON with Content-Type: application/json"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["invalid_request", "Content-Length does not match the body"],
  FST_ERR_CTP_BODY_TOO_LARGE: ["payload_too_large", "request body is too large"],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["invalid_request", "body is empty"],
  FST_ERR_CTP_INVALID_JSON_BODY: ["invalid_request", "body is not valid JSON"],
  // the router's own refusals: the URL is never echoed back (it is the attacker's text)
  FST_ERR_BAD_URL: ["invalid_request", "the URL is not valid (bad percent-encoding)"],
  FST_ERR_MAX_PARAM_LENGTH: ["uri_too_long", "a segment of the URL path is too long"],
};

/**
 * A reply lists this many problems at most, then one entry that counts the rest: a body with
 * 100,000 unknown keys must not buy a 7 MB answer.
 */
export const MAX_DETAILS = 20;

export function capDetails(details: FieldProblem[]): FieldProblem[] {
  if (details.length <= MAX_DETAILS) return details;
  const more = details.length - MAX_DETAILS;
  return [...details.slice(0, MAX_DETAILS), { field: "(more)", message: `${more} more problem${more === 1 ? "" : "s"} not listed` }];
}

/** The envelope for `code`; what every error reply (and every raw-socket one) carries. */
export function envelope(code: ErrorCode, message: string, details?: FieldProblem[]) {
  return { error: { code, message, ...(details && details.length ? { details: capDetails(details) } : {}) } };
}

function validationDetails(err: FastifyError): FieldProblem[] {
  return (err.validation ?? []).map((v) => {
    const missing = (v.params as { missingProperty?: string })?.missingProperty;
    const path = v.instancePath.replace(/^\//, "").replace(/\//g, ".");
    const field = [path, missing].filter(Boolean).join(".") || (err.validationContext ?? "request");
    return { field, message: missing ? "is required" : (v.message ?? "is invalid") };
  });
}

export function toAppError(err: FastifyError | AppError | Error): AppError | undefined {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe.validation) {
    const details = validationDetails(fe);
    return new AppError("invalid_request", `invalid ${fe.validationContext ?? "request"}: ${details[0]?.field} ${details[0]?.message}`, details);
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  if (err instanceof SyntaxError && fe.statusCode === 400) return new AppError("invalid_request", "body is not valid JSON");
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return new AppError("invalid_request", fe.message);
  return undefined;
}

/** "1 MiB (1048576 bytes)": a limit as a person reads it, with the exact count a client checks */
export function sizeLimit(bytes: number): string {
  const unit = bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : "";
  return unit ? `${unit} (${bytes} bytes)` : `${bytes} bytes`;
}

/**
 * A body over the route's limit: the 413 names the limit (each route has its own: the API's,
 * an endpoint's, a resume URL's), and for a workflow what may be too big.
 */
function tooLarge(request: FastifyRequest): AppError {
  const limit = request.routeOptions.bodyLimit;
  const route = request.routeOptions.url;
  const workflowSave = (route === "/v1/workflows" && request.method === "POST") || (route === "/v1/workflows/:id" && request.method === "PUT");
  const what = workflowSave ? `: a workflow's steps (code and props) must fit in it together, one step's code in ${sizeLimit(MAX_STEP_CODE_BYTES)}` : "";
  return new AppError("payload_too_large", limit ? `the request body is over this endpoint's limit of ${sizeLimit(limit)}${what}` : "the request body is too large");
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const app = err.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? tooLarge(request) : toAppError(err);
  if (app?.retryAfterSeconds !== undefined) reply.header("retry-after", String(Math.max(1, Math.ceil(app.retryAfterSeconds))));
  // A component's reply may have set headers before it failed; the envelope is JSON whatever they said.
  reply.type("application/json; charset=utf-8");
  // Our own 5xx codes carry messages we wrote (never a stack or SQL), so the client gets them.
  if (app && app.status >= 500 && app.code !== "internal") {
    request.log.warn({ err }, "request failed");
    reply.status(app.status).send(envelope(app.code, app.message));
    return;
  }
  if (!app || app.status >= 500) {
    request.log.error({ err }, "request failed");
    const code: ErrorCode = app?.code ?? "internal";
    reply.status(ERROR_STATUS[code]).send(envelope(code, "the service failed to handle this request"));
    return;
  }
  reply.status(app.status).send(envelope(app.code, app.message, app.details));
}

/** Fastify's `frameworkErrors`: the router's bad-URL and too-long-param refusals, in the envelope. */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  errorHandler(err, request, reply);
}

// The path of an unknown route is named in the 404, cut short: an answer never grows with the URL.
const MAX_ECHOED_PATH = 200;

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split("?")[0];
  const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}...` : path;
  reply.status(404).send(envelope("not_found", `no route for ${request.method} ${shown}`));
}
