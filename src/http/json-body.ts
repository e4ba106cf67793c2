import type { FastifyRequest } from "fastify";
import { AppError, invalid } from "../lib/errors.ts";
import { jsonShapeProblem, MAX_JSON_DEPTH } from "../lib/json-shape.ts";

// JSON bodies, parsed with "__proto__" keys dropped. An empty body with a JSON
// content type is "no body": Pipedream's documented curl calls (POST /subscriptions?...) send
// exactly that, and they must keep working. It reads as an empty object.
//
// Shapes no API body needs are refused before the text is parsed: nesting past MAX_JSON_DEPTH
// (deep values overflow the stack of whatever recurses over them later) and objects with more
// than MAX_KEYS members (parsing 100,000 keys alone blocks the event loop for a tenth of a
// second, and each could cost a validation problem).

/** Members of one object in an API body; the largest legitimate ones (events, props) are far smaller. */
export const MAX_KEYS = 10_000;

export function tooDeep(max = MAX_JSON_DEPTH): AppError {
  return invalid(`the body nests deeper than ${max} levels`, [{ field: "body", message: `nests deeper than ${max} levels` }]);
}

export function tooWide(): AppError {
  return invalid(`an object in the body has more than ${MAX_KEYS} members`, [
    { field: "body", message: `has an object with more than ${MAX_KEYS} members` },
  ]);
}

/**
 * Drops own "__proto__" members at any depth (a later spread or merge would make them a
 * prototype). Iterative, though the depth is bounded already.
 */
function dropProto(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) if (typeof v === "object" && v !== null) stack.push(v);
      continue;
    }
    const obj = value as Record<string, unknown>;
    if (Object.hasOwn(obj, "__proto__")) delete obj["__proto__"];
    for (const k in obj) {
      const v = obj[k];
      if (typeof v === "object" && v !== null) stack.push(v);
    }
  }
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return {};
  const shape = jsonShapeProblem(text, MAX_JSON_DEPTH, MAX_KEYS);
  if (shape) throw shape.kind === "deep" ? tooDeep() : tooWide();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("body is not valid JSON");
  }
  // the key can only be there if its name is, or an escape that could spell it
  if (text.includes("__proto__") || text.includes("\\u")) dropProto(value);
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
