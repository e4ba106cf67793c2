import { Cron } from "croner";
import type { WorkflowSettings, WorkflowTrigger } from "../../store/port.ts";
import { invalid, type FieldProblem } from "../../lib/errors.ts";

// The body of POST/PUT /workflows (docs/api.md), checked field by field so one 400 names every
// problem. Step names become keys of `steps` in step code, so they must be identifiers.

export interface WorkflowInput {
  name?: unknown;
  steps?: unknown;
  trigger?: unknown;
  active?: unknown;
  settings?: unknown;
}

/** A step: exactly one of its own `code`, a saved component (`component_id`) or a registry `key`. */
export interface StepInput {
  /** on PUT: the step's id as GET showed it (`c_...`), so its secrets are kept even when renamed */
  id?: string;
  name: string;
  code?: string;
  component_id?: string;
  key?: string;
  props?: Record<string, unknown>;
}

const MAX_STEPS = 50;
const MAX_CODE_BYTES = 1024 * 1024;
/**
 * One step's code: below the API's body limit (1 MiB), so a step pasted too big is named here
 * (`steps[i].code`) rather than refused as a body too large, which can't say which step it was.
 */
export const MAX_STEP_CODE_BYTES = 512 * 1024;
const MAX_PROPS_BYTES = 256 * 1024;
const ORIGINS = ["code", "component_id", "key"] as const;
const STEP_NAME = /^[A-Za-z_$][\w$]{0,63}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function checkName(v: unknown, problems: FieldProblem[]): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.trim() === "" || v.length > 200) {
    problems.push({ field: "name", message: "must be a non-empty string of at most 200 characters" });
    return undefined;
  }
  return v.trim();
}

export function checkSteps(v: unknown, problems: FieldProblem[]): StepInput[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_STEPS) {
    problems.push({ field: "steps", message: `must be an array of 1 to ${MAX_STEPS} steps` });
    return undefined;
  }
  const seen = new Set<string>(["trigger"]);
  const before = problems.length;
  let bytes = 0;
  v.forEach((s: unknown, i) => {
    const at = `steps[${i}]`;
    // null, a string, an array...: named here, never read as {name, code} below
    if (!isObject(s)) return problems.push({ field: at, message: "must be an object {name, code | component_id | key, props?}" });
    if (typeof s.name !== "string" || !STEP_NAME.test(s.name)) {
      problems.push({ field: `${at}.name`, message: "must be an identifier (letters, digits, _ or $; at most 64)" });
    } else if (seen.has(s.name)) {
      problems.push({ field: `${at}.name`, message: `"${s.name}" is taken (step names are unique, and "trigger" is reserved)` });
    } else {
      seen.add(s.name);
    }
    const given = ORIGINS.filter((o) => s[o] !== undefined && s[o] !== null);
    if (given.length !== 1) {
      problems.push({ field: `${at}.code`, message: given.length === 0 ? "is required (or give component_id or key)" : `give one of code, component_id and key, not ${given.join(" and ")}` });
    } else if (typeof s[given[0]] !== "string" || (s[given[0]] as string).trim() === "") {
      problems.push({ field: `${at}.${given[0]}`, message: "must be a non-empty string" });
    } else if (given[0] === "code") {
      const size = Buffer.byteLength(s.code as string);
      if (size > MAX_STEP_CODE_BYTES) problems.push({ field: `${at}.code`, message: `is ${size} bytes: a step's code is at most ${MAX_STEP_CODE_BYTES} bytes (512 KiB)` });
      bytes += size;
    }
    if (s.id !== undefined && typeof s.id !== "string") problems.push({ field: `${at}.id`, message: "must be a string (a step id as GET shows it)" });
    if (s.props !== undefined && s.props !== null && !isObject(s.props)) problems.push({ field: `${at}.props`, message: "must be an object" });
    else if (s.props && JSON.stringify(s.props).length > MAX_PROPS_BYTES) problems.push({ field: `${at}.props`, message: `are over ${MAX_PROPS_BYTES} bytes of JSON` });
  });
  if (bytes > MAX_CODE_BYTES) problems.push({ field: "steps", message: `the steps' code is over ${MAX_CODE_BYTES} bytes` });
  if (problems.length > before) return undefined;
  return (v as Record<string, unknown>[]).map((s) => {
    const origin = ORIGINS.find((o) => typeof s[o] === "string")!;
    return { ...(typeof s.id === "string" ? { id: s.id } : {}), name: s.name as string, [origin]: s[origin] as string, ...(isObject(s.props) ? { props: s.props } : {}) };
  });
}

export function checkTrigger(v: unknown, problems: FieldProblem[]): WorkflowTrigger | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v) || !["http", "timer", "none"].includes(v.type as string)) {
    problems.push({ field: "trigger.type", message: 'must be "http", "timer" or "none"' });
    return undefined;
  }
  if (v.type === "http") {
    if (v.custom_response !== undefined && typeof v.custom_response !== "boolean") problems.push({ field: "trigger.custom_response", message: "must be a boolean" });
    return v.custom_response === true ? { type: "http", custom_response: true } : { type: "http" };
  }
  if (v.type !== "timer") return { type: v.type as "none" };
  if (typeof v.cron === "string" && v.cron.trim() !== "") {
    const cron = v.cron.trim();
    try {
      if (![5, 6].includes(cron.split(/\s+/).length)) throw new Error("fields");
      new Cron(cron, { paused: true, timezone: "UTC" }).stop();
    } catch {
      problems.push({ field: "trigger.cron", message: "must be a valid 5 or 6 field cron expression" });
    }
    return { type: "timer", cron, interval_seconds: null };
  }
  const s = v.interval_seconds;
  if (typeof s !== "number" || !Number.isInteger(s) || s < 1) {
    problems.push({ field: "trigger.interval_seconds", message: "must be an integer number of seconds >= 1 (or give cron)" });
  }
  return { type: "timer", interval_seconds: s as number, cron: null };
}

/** `settings` (docs/writing-workflows.md): retries, concurrency, rate. null (or {}) is the defaults. */
export function checkSettings(v: unknown, problems: FieldProblem[]): WorkflowSettings | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (!isObject(v)) {
    problems.push({ field: "settings", message: "must be an object {retries?, concurrency?, rate?}" });
    return undefined;
  }
  const out: WorkflowSettings = {};
  const int = (x: unknown, min: number, max: number) => typeof x === "number" && Number.isInteger(x) && x >= min && x <= max;
  for (const key of Object.keys(v)) {
    const value = v[key];
    if (value === null || value === undefined) continue;
    if (key === "retries") {
      if (!int(value, 0, 8)) problems.push({ field: "settings.retries", message: "must be an integer from 0 to 8" });
      else if ((value as number) > 0) out.retries = value as number;
    } else if (key === "concurrency") {
      if (!int(value, 1, 10_000)) problems.push({ field: "settings.concurrency", message: "must be an integer from 1 to 10000, or null" });
      else out.concurrency = value as number;
    } else if (key === "rate") {
      const r = isObject(value) ? value : {};
      if (!int(r.limit, 1, 1_000_000) || !int(r.per_seconds, 1, 86_400) || Object.keys(r).some((k) => k !== "limit" && k !== "per_seconds")) {
        problems.push({ field: "settings.rate", message: "must be {limit: 1-1000000, per_seconds: 1-86400}, or null" });
      } else out.rate = { limit: r.limit as number, per_seconds: r.per_seconds as number };
    } else {
      problems.push({ field: `settings.${key}`, message: "is not a setting (retries, concurrency, rate)" });
    }
  }
  return Object.keys(out).length === 0 ? null : out;
}

export function checkActive(v: unknown, problems: FieldProblem[]): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") problems.push({ field: "active", message: "must be a boolean" });
  return v === true;
}

export function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length) throw invalid(`invalid workflow: ${problems[0].field} ${problems[0].message}`, problems);
}
