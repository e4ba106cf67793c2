import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldProblem } from "../lib/errors.ts";

// The one envelope: {"error": {code, message, details?}}. Anything that isn't an AppError or a
// request problem Fastify recognised is a 500 whose details go to the log, never the client.

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ["unsupported_media_type", "send the body as JSON with Content-Type: application/json"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["invalid_request", "Content-Length does not match the body"],
  FST_ERR_CTP_BODY_TOO_LARGE: ["payload_too_large", "request body is too large"],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["invalid_request", "body is empty"],
  FST_ERR_CTP_INVALID_JSON_BODY: ["invalid_request", "body is not valid JSON"],
};

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

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const app = toAppError(err);
  if (app?.retryAfterSeconds !== undefined) reply.header("retry-after", String(Math.max(1, Math.ceil(app.retryAfterSeconds))));
  // Our own 5xx codes carry messages we wrote (never a stack or SQL), so the client gets them.
  if (app && app.status >= 500 && app.code !== "internal") {
    request.log.warn({ err }, "request failed");
    reply.status(app.status).send({ error: { code: app.code, message: app.message } });
    return;
  }
  if (!app || app.status >= 500) {
    request.log.error({ err }, "request failed");
    const code: ErrorCode = app?.code ?? "internal";
    reply.status(ERROR_STATUS[code]).send({ error: { code, message: "the service failed to handle this request" } });
    return;
  }
  reply.status(app.status).send({
    error: { code: app.code, message: app.message, ...(app.details ? { details: app.details } : {}) },
  });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  reply.status(404).send({ error: { code: "not_found", message: `no route for ${request.method} ${request.url.split("?")[0]}` } });
}
