import { invalid, type FieldProblem } from "../../lib/errors.ts";
import { APP } from "./account-input.ts";

// The body of POST /oauth_apps and PUT /oauth_apps/{id}, checked field by field so one 400 names
// every problem. The client secret is never quoted back.

export interface OAuthAppInput {
  app?: string;
  client_id?: string;
  client_secret?: string;
  authorize_url?: string;
  token_url?: string;
  scopes?: string[];
  pkce?: boolean;
  token_auth?: "basic" | "body";
  authorize_params?: Record<string, string>;
}

const FIELDS = ["app", "client_id", "client_secret", "authorize_url", "token_url", "scopes", "pkce", "token_auth", "authorize_params", "include", "exclude"];
// authorize_params can't override what the flow itself sets: that would undo state or PKCE
const RESERVED_PARAMS = ["state", "code_challenge", "code_challenge_method", "redirect_uri", "client_id", "response_type"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function text(v: unknown, field: string, max: number, problems: FieldProblem[]): string | undefined {
  if (typeof v !== "string" || v.trim() === "" || v.length > max) {
    problems.push({ field, message: `must be a non-empty string of at most ${max} characters` });
    return undefined;
  }
  return v.trim();
}

function url(v: unknown, field: string, problems: FieldProblem[]): string | undefined {
  const u = typeof v === "string" && v.length <= 2000 ? URL.parse(v) : null;
  if (!u || (u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password || u.hash) {
    problems.push({ field, message: "must be an http(s) URL without credentials or fragment" });
    return undefined;
  }
  return u.href;
}

/** OAuth scope names: at most 100, without spaces (they are joined with spaces in the URL) */
export function checkScopes(v: unknown, problems: FieldProblem[]): string[] | undefined {
  if (Array.isArray(v) && v.length <= 100 && v.every((x) => typeof x === "string" && x !== "" && x.length <= 200 && !/\s/.test(x))) return v as string[];
  problems.push({ field: "scopes", message: "must be an array of at most 100 scope names (no spaces)" });
  return undefined;
}

/** The checked input; `creating` asks for every required field, an update for at least one. */
export function checkOAuthAppInput(body: unknown, creating: boolean): OAuthAppInput {
  if (!isObject(body)) throw invalid("the body must be a JSON object", [{ field: "body", message: "must be an object" }]);
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(body)) {
    if (!FIELDS.includes(key)) problems.push({ field: key.slice(0, 100), message: "is not a field of an OAuth app" });
    else if (key === "app" && !creating) problems.push({ field: "app", message: "can't be changed (configure another app instead)" });
  }
  const out: OAuthAppInput = {};
  const required = creating ? ["app", "client_id", "client_secret", "authorize_url", "token_url"] : [];
  for (const f of required) if (body[f] === undefined || body[f] === null) problems.push({ field: f, message: "is required" });
  if (creating && body.app != null) {
    if (typeof body.app === "string" && APP.test(body.app)) out.app = body.app;
    else problems.push({ field: "app", message: "must be an app name: 1 to 100 letters, digits, '_', '.' or '-'" });
  }
  if (body.client_id != null) out.client_id = text(body.client_id, "client_id", 500, problems);
  if (body.client_secret != null) out.client_secret = text(body.client_secret, "client_secret", 2000, problems);
  if (body.authorize_url != null) out.authorize_url = url(body.authorize_url, "authorize_url", problems);
  if (body.token_url != null) out.token_url = url(body.token_url, "token_url", problems);
  if (body.scopes != null) out.scopes = checkScopes(body.scopes, problems);
  if (body.pkce != null) {
    if (typeof body.pkce === "boolean") out.pkce = body.pkce;
    else problems.push({ field: "pkce", message: "must be true or false" });
  }
  if (body.token_auth != null) {
    if (body.token_auth === "basic" || body.token_auth === "body") out.token_auth = body.token_auth;
    else problems.push({ field: "token_auth", message: 'must be "basic" or "body"' });
  }
  if (body.authorize_params != null) {
    const p = body.authorize_params;
    const entries = isObject(p) ? Object.entries(p) : [];
    if (!isObject(p) || entries.length > 20 || entries.some(([k, v]) => typeof v !== "string" || v.length > 500 || k.length > 100)) {
      problems.push({ field: "authorize_params", message: "must be an object of at most 20 string parameters" });
    } else if (entries.some(([k]) => RESERVED_PARAMS.includes(k))) {
      problems.push({ field: "authorize_params", message: `can't set ${RESERVED_PARAMS.join(", ")}: the service sets them` });
    } else out.authorize_params = p as Record<string, string>;
  }
  if (!creating && problems.length === 0 && Object.values(out).every((v) => v === undefined)) {
    problems.push({ field: "body", message: "must change at least one field" });
  }
  if (problems.length) throw invalid(creating ? "invalid OAuth app" : "invalid OAuth app update", problems);
  return out;
}
