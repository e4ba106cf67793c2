import { invalid, type FieldProblem } from "../../lib/errors.ts";

// A variable's name (the path's {NAME}) and the body of its PUT, checked field by field so one
// 400 names every problem. Messages never quote the value: it may be a credential.

export const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** a value's UTF-8 bytes at most; every run of every component of the user carries them all */
export const MAX_VALUE_BYTES = 64 * 1024;
/** include/exclude are every body's response filters (http/filter.ts) */
const FILTERS = ["include", "exclude"];

export interface EnvVarInput {
  value: string;
  /** absent: a new variable is not secret, a replaced one keeps what it was */
  secret?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const nameProblem = (name: string): FieldProblem | undefined =>
  NAME.test(name) ? undefined : { field: "name", message: "must be 1 to 128 letters, digits or '_', not starting with a digit" };

/** Throws the 400 for a name that can't be a variable's. */
export function checkName(name: string): void {
  const problem = nameProblem(name);
  if (problem) throw invalid("invalid environment variable name", [problem]);
}

/** The checked name and body of PUT /users/me/env/{NAME}. */
export function checkEnvVarInput(name: string, body: unknown): EnvVarInput {
  if (!isObject(body)) throw invalid("the body must be a JSON object", [{ field: "body", message: "must be an object" }]);
  const problems: FieldProblem[] = [];
  const bad = nameProblem(name);
  if (bad) problems.push(bad);
  for (const key of Object.keys(body)) {
    if (key === "value" || key === "secret" || FILTERS.includes(key)) continue;
    problems.push({ field: key.length > 100 ? `${key.slice(0, 100)}...` : key, message: "is not a field of an environment variable" });
  }
  const { value, secret } = body;
  if (value === undefined || value === null) problems.push({ field: "value", message: "is required" });
  else if (typeof value !== "string") problems.push({ field: "value", message: "must be a string" });
  else if (Buffer.byteLength(value) > MAX_VALUE_BYTES) problems.push({ field: "value", message: `must be at most ${MAX_VALUE_BYTES} bytes (UTF-8)` });
  if (secret !== undefined && typeof secret !== "boolean") problems.push({ field: "secret", message: "must be true or false" });
  if (problems.length) throw invalid("invalid environment variable", problems);
  return secret === undefined ? { value: value as string } : { value: value as string, secret: secret as boolean };
}
