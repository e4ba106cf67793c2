import { invalid, type FieldProblem } from "../../lib/errors.ts";

// The body of POST /accounts and PUT /accounts/{id}, checked field by field so one 400 names
// every problem. Messages never quote the auth's values: they are credentials.

export interface AccountInput {
  app?: string;
  name?: string;
  auth?: Record<string, unknown>;
}

/** an app's name, as accounts, OAuth apps and app props give it */
export const APP = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
const MAX_NAME = 200;
const MAX_FIELDS = 100;
const MAX_FIELD_NAME = 200;
/** the auth as JSON; credentials are small, and every run of every source that uses it carries it */
export const MAX_AUTH_BYTES = 64 * 1024;
/** include/exclude are every body's response filters (http/filter.ts) */
const FILTERS = ["include", "exclude"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function checkAuth(v: unknown, problems: FieldProblem[]): Record<string, unknown> | undefined {
  const fail = (message: string) => {
    problems.push({ field: "auth", message });
    return undefined;
  };
  if (!isObject(v)) return fail("must be an object of the app's credentials");
  const names = Object.keys(v);
  if (names.length > MAX_FIELDS) return fail(`must have at most ${MAX_FIELDS} fields`);
  if (names.some((n) => n === "" || n.length > MAX_FIELD_NAME)) return fail(`field names must be 1 to ${MAX_FIELD_NAME} characters`);
  if (Buffer.byteLength(JSON.stringify(v)) > MAX_AUTH_BYTES) return fail(`must be at most ${MAX_AUTH_BYTES} bytes of JSON`);
  return v;
}

/** The checked input; `creating` asks for `app` and `auth`, an update for `name` and/or `auth`. */
export function checkAccountInput(body: unknown, creating: boolean): AccountInput {
  if (!isObject(body)) throw invalid("the body must be a JSON object", [{ field: "body", message: "must be an object" }]);
  const problems: FieldProblem[] = [];
  const known = creating ? ["app", "name", "auth", ...FILTERS] : ["name", "auth", ...FILTERS];
  for (const key of Object.keys(body)) {
    if (known.includes(key)) continue;
    const field = key.length > 100 ? `${key.slice(0, 100)}...` : key;
    const message = key === "app" ? "can't be changed (connect another account instead)" : "is not a field of an account";
    problems.push({ field, message });
  }
  const out: AccountInput = {};
  if (creating) {
    if (body.app === undefined || body.app === null) problems.push({ field: "app", message: "is required" });
    else if (typeof body.app !== "string" || !APP.test(body.app)) {
      problems.push({ field: "app", message: "must be an app name: 1 to 100 letters, digits, '_', '.' or '-'" });
    } else out.app = body.app;
  }
  if (body.name !== undefined && body.name !== null) {
    if (typeof body.name !== "string" || body.name.trim() === "" || body.name.length > MAX_NAME) {
      problems.push({ field: "name", message: `must be a non-empty string of at most ${MAX_NAME} characters` });
    } else out.name = body.name.trim();
  }
  if (body.auth !== undefined) out.auth = checkAuth(body.auth, problems);
  else if (creating) problems.push({ field: "auth", message: "is required" });
  if (!creating && problems.length === 0 && out.name === undefined && out.auth === undefined) {
    problems.push({ field: "body", message: "must give a new name and/or auth" });
  }
  if (problems.length) throw invalid(creating ? "invalid account" : "invalid account update", problems);
  return out;
}
