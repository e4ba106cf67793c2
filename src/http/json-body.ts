import type { FastifyRequest } from "fastify";
import { AppError, invalid } from "../lib/errors.ts";
import { jsonTooDeep, MAX_JSON_DEPTH } from "../lib/json-depth.ts";

// JSON bodies, parsed with "__proto__" keys dropped. An empty body with a JSON
// content type is "no body": Pipedream's documented curl calls (POST /subscriptions?...) send
// exactly that, and they must keep working. It reads as an empty object.
//
// Shapes no API body needs are refused here, before anything walks them: nesting past
// MAX_JSON_DEPTH (deep values overflow the stack of whatever recurses over them later) and
// objects with more than MAX_KEYS members (each one could cost a validation problem, a log line).

/** Members of one object in an API body; the largest legitimate ones (events, props) are far smaller. */
export const MAX_KEYS = 10_000;

export function tooDeep(): AppError {
  return invalid(`the body nests deeper than ${MAX_JSON_DEPTH} levels`, [
    { field: "body", message: `nests deeper than ${MAX_JSON_DEPTH} levels` },
  ]);
}

/**
 * Drops own "__proto__" members (a later spread or merge would make them a prototype) and
 * returns the path of the first object with more than MAX_KEYS members. Iterative: the depth is
 * already bounded, but a stack of pending objects costs nothing.
 */
function sanitize(root: unknown): string | undefined {
  const stack: Array<[object, string]> = [];
  const visit = (v: unknown, path: string) => {
    if (typeof v === "object" && v !== null) stack.push([v, path]);
  };
  visit(root, "");
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], `${path}[${i}]`);
      continue;
    }
    const obj = value as Record<string, unknown>;
    if (Object.hasOwn(obj, "__proto__")) delete obj["__proto__"];
    const keys = Object.keys(obj);
    if (keys.length > MAX_KEYS) return path || "body";
    for (const k of keys) visit(obj[k], path ? `${path}.${k}` : k);
  }
  return undefined;
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return {};
  if (jsonTooDeep(text)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("body is not valid JSON");
  }
  const wide = sanitize(value);
  if (wide !== undefined) {
    const field = wide.length > 100 ? `${wide.slice(0, 100)}...` : wide;
    throw invalid(`an object in the body has more than ${MAX_KEYS} members`, [{ field, message: `has more than ${MAX_KEYS} members` }]);
  }
  return value;
}

export function jsonBodyParser(_req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void): void {
  let value: unknown;
  try {
    value = parseJsonBody(typeof body === "string" ? body : body.toString("utf8"));
  } catch (err) {
    return done(err as Error);
  }
  done(null, value);
}
