import { Cron } from "croner";
import type { ComponentMeta, PropDefinition } from "../runtime/types.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { withAdded } from "./added-props.ts";
import { invalid, type FieldProblem } from "../lib/errors.ts";
import { accountIdOf } from "./accounts/account-refs.ts";
import { DATA_STORE } from "./data-stores/store-refs.ts";
import { HTTP_REQUEST, httpRequestProblems } from "./http-request-prop.ts";

/**
 * `$.interface.apphook`: gets the events the app sends to its account's app-events URL
 * (core/app-events/). Optional; its value, when given, is the list of event names it takes.
 */
export const APPHOOK = "$.interface.apphook";
/** `alert`: a display-only prop (a note in the props form); never required, never stored */
export const ALERT = "alert";

// Configured props: checked against the component's declared props (docs/writing-components.md, "Props") and
// stored in one normal form: secrets sealed, the timer as {intervalSeconds} or {cron}.

export const DEFAULT_TIMER_SECONDS = 900;
const MAX_EVENT_NAMES = 100;
const eventNamesOk = (v: unknown) =>
  Array.isArray(v) && v.length <= MAX_EVENT_NAMES && v.every((n) => typeof n === "string" && n !== "" && n.length <= 200);
export const MASK = "********";

export type TimerConfig = { intervalSeconds: number } | { cron: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
// A prop named "toString" or "constructor" must not read Object.prototype's member when not given.
const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

function timerFrom(value: unknown, field: string, problems: FieldProblem[]): TimerConfig | undefined {
  if (!isObject(value)) {
    problems.push({ field, message: "must be an object with intervalSeconds or cron" });
    return undefined;
  }
  const seconds = value.intervalSeconds ?? value.interval_seconds;
  if (typeof value.cron === "string" && value.cron.trim() !== "") {
    const fields = value.cron.trim().split(/\s+/).length;
    try {
      if (fields !== 5 && fields !== 6) throw new Error();
      new Cron(value.cron, { paused: true, timezone: "UTC" }).stop();
    } catch {
      problems.push({ field: `${field}.cron`, message: "must be a valid 5 or 6 field cron expression" });
      return undefined;
    }
    return { cron: value.cron.trim() };
  }
  if (typeof seconds === "number" && Number.isInteger(seconds) && seconds >= 1) return { intervalSeconds: seconds };
  problems.push({ field: `${field}.intervalSeconds`, message: "must be an integer number of seconds >= 1" });
  return undefined;
}

export function defaultTimer(prop: PropDefinition): TimerConfig {
  const d = prop.default;
  if (isObject(d)) {
    if (typeof d.cron === "string") return { cron: d.cron };
    const s = d.intervalSeconds ?? d.interval_seconds;
    if (typeof s === "number" && s >= 1) return { intervalSeconds: Math.floor(s) };
  }
  return { intervalSeconds: DEFAULT_TIMER_SECONDS };
}

function optionValues(options: unknown[]): unknown[] {
  return options.map((o) => (isObject(o) && "value" in o ? o.value : o));
}

function checkValue(p: PropDefinition, value: unknown, problems: FieldProblem[], at: string): boolean {
  const field = `${at}.${p.name}`;
  const fail = (message: string) => (problems.push({ field, message }), false);
  const isInt = (v: unknown) => typeof v === "number" && Number.isInteger(v);
  switch (p.type) {
    case "string":
      if (typeof value !== "string") return fail("must be a string");
      break;
    case "integer":
      if (!isInt(value)) return fail("must be an integer");
      if (p.min !== undefined && (value as number) < p.min) return fail(`must be >= ${p.min}`);
      if (p.max !== undefined && (value as number) > p.max) return fail(`must be <= ${p.max}`);
      break;
    case "boolean":
      if (typeof value !== "boolean") return fail("must be a boolean");
      break;
    case "object":
      if (!isObject(value)) return fail("must be an object");
      break;
    case "string[]":
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return fail("must be an array of strings");
      break;
    case "integer[]":
      if (!Array.isArray(value) || !value.every(isInt)) return fail("must be an array of integers");
      break;
    case "app":
      if (!isObject(value)) return fail('must be an object: {"authProvisionId": "apn_..."} (a connected account) or the app\'s auth');
      // naming an account: the id alone, so the stored value never mixes a reference and auth
      if (Object.hasOwn(value, "authProvisionId") && (typeof value.authProvisionId !== "string" || Object.keys(value).length !== 1)) {
        return fail('must be {"authProvisionId": "apn_..."} with nothing else to use a connected account');
      }
      break;
    case HTTP_REQUEST: {
      const found = httpRequestProblems(value, field);
      if (found.length > 0) return (problems.push(...found), false);
      break;
    }
    case DATA_STORE:
      if (!isObject(value) || typeof value.dataStoreId !== "string" || Object.keys(value).length !== 1) {
        return fail('must be {"dataStoreId": "ds_..."}: one of your data stores');
      }
      break;
  }
  if (Array.isArray(p.options) && p.options.length > 0 && p.type !== "app" && p.type !== DATA_STORE) {
    const allowed = optionValues(p.options);
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((v) => allowed.some((a) => JSON.stringify(a) === JSON.stringify(v)))) {
      return fail(`must be one of ${JSON.stringify(allowed)}`);
    }
  }
  return true;
}

/** How props are read: a source's `configured_props`, or a workflow step's `props` (docs/writing-workflows.md, "Props"). */
export interface PropsOptions {
  /** the field problems are named under */
  field?: string;
  /** a string holding `{{ … }}` is an expression evaluated at run time: any type, checked when run */
  expressions?: boolean;
  /** what a client sends back for a secret it was shown, to keep the stored value */
  keepsSecret?: (given: unknown) => boolean;
}

/** A string value with a `{{ … }}` expression in it (workflow steps' props). */
export const hasExpression = (v: unknown): v is string => typeof v === "string" && /\{\{[\s\S]*?\}\}/.test(v);

/**
 * The stored form of `given` for `meta`'s props. `previous` (an update) supplies values not
 * given again, and secrets sent back as the mask keep their old value.
 */
export function normalizeProps(
  meta: ComponentMeta,
  given: unknown,
  secrets: SecretBox,
  previous: Record<string, unknown> = {},
  opts: PropsOptions = {},
): Record<string, unknown> {
  const at = opts.field ?? "configured_props";
  const keeps = opts.keepsSecret ?? ((v: unknown) => v === MASK);
  if (given !== undefined && given !== null && !isObject(given)) {
    throw invalid(`${at} must be an object`, [{ field: at, message: "must be an object" }]);
  }
  const input = (given ?? {}) as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const declared = new Map(meta.props.map((p) => [p.name, p]));
  for (const name of Object.keys(input)) {
    if (!declared.has(name)) problems.push({ field: `${at}.${name}`, message: "is not a prop of this component" });
  }
  const out: Record<string, unknown> = {};
  for (const p of meta.props) {
    const given = own(input, p.name);
    const value = given !== undefined ? given : own(previous, p.name);
    // an alert is a note to whoever sets the props (Pipedream's display-only type): never a value
    if (p.type === "$.interface.http" || p.type === "$.service.db" || p.type === ALERT) continue;
    if (p.type === APPHOOK) {
      // bound through its app prop; a value names the events it takes, in place of its eventNames
      if (value === undefined || value === null) continue;
      if (eventNamesOk(value)) out[p.name] = value;
      else problems.push({ field: `${at}.${p.name}`, message: `must be a list of event names (at most ${MAX_EVENT_NAMES} non-empty strings), or left out` });
      continue;
    }
    if (p.type === "$.interface.timer") {
      const timer = value === undefined ? defaultTimer(p) : timerFrom(value, `${at}.${p.name}`, problems);
      if (timer) out[p.name] = timer;
      continue;
    }
    if (value === undefined || value === null) {
      // a hidden or disabled prop is never asked for (Pipedream's form leaves it out), so never required
      if (!p.optional && !p.hidden && !p.disabled && p.default === undefined && p.type !== "app") {
        problems.push({ field: `${at}.${p.name}`, message: "is required" });
      }
      continue;
    }
    const kept = given === undefined || keeps(given);
    if (p.secret && kept && own(previous, p.name) !== undefined) {
      out[p.name] = own(previous, p.name);
      continue;
    }
    if (p.secret && opts.keepsSecret && given !== undefined && keeps(given)) {
      problems.push({ field: `${at}.${p.name}`, message: "is shown hidden, but there is no earlier value to keep: send its value" });
      continue;
    }
    // a secret is never an expression: it is taken as written
    const expression = opts.expressions && p.type !== "app" && p.type !== DATA_STORE && !p.secret && hasExpression(value);
    if (!expression && !checkValue(p, value, problems, at)) continue;
    // an account reference holds no secret (the account's auth is sealed where it lives)
    out[p.name] = p.secret && accountIdOf(value) === undefined ? secrets.seal(JSON.stringify(value)) : value;
  }
  if (problems.length) throw invalid(`${at} are not valid for this component`, problems);
  return out;
}

/** configured_props as the API shows them (docs/api.md, "Sources"). */
export function echoProps(declared: ComponentMeta, stored: Record<string, unknown>, endpointUrl: string | null) {
  // with the props additionalProps() added for these values (added-props.ts)
  const meta = withAdded(declared, stored);
  const out: Record<string, unknown> = {};
  for (const p of meta.props) {
    if (p.type === "$.service.db") continue;
    if (p.type === "$.interface.http") {
      out[p.name] = { endpoint_url: endpointUrl };
      continue;
    }
    const value = own(stored, p.name);
    if (p.type === "$.interface.timer") {
      const t = (value ?? defaultTimer(p)) as TimerConfig;
      out[p.name] = "cron" in t ? { cron: t.cron, interval_seconds: null } : { cron: null, interval_seconds: t.intervalSeconds };
      continue;
    }
    if (value === undefined) continue;
    out[p.name] = p.secret && accountIdOf(value) === undefined ? MASK : value;
  }
  return out;
}
