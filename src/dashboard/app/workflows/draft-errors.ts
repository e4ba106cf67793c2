import type { StepDraft } from "./workflow-draft.ts";

// The API's problems put back where they belong: a field's details under its input, a step that
// doesn't load (422: `step "<name>": <reason>`, often with the line) under that step's code.

export interface StepErrors {
  name?: string;
  /** the step as a whole: its code, or the component it names */
  code?: string;
  /** by prop name; "" for the props as a whole */
  props?: Record<string, string>;
}

export interface SettingsErrors {
  retries?: string;
  concurrency?: string;
  rate?: string;
}

export interface DraftErrors {
  form?: string;
  name?: string;
  trigger?: string;
  steps?: string;
  settings: SettingsErrors;
  /** by step index */
  step: Record<number, StepErrors>;
}

export const noErrors = (): DraftErrors => ({ settings: {}, step: {} });

interface Envelope {
  error?: { message?: string; details?: { field: string; message: string }[] };
}

/** Adds a step's problem unless that part already has one (the first is the one to fix). */
export function putStep(out: DraftErrors, i: number, part: "name" | "code", message: string): void {
  out.step[i] = { ...out.step[i], [part]: out.step[i]?.[part] ?? message };
}

function putProp(out: DraftErrors, i: number, prop: string, message: string): void {
  const props = out.step[i]?.props ?? {};
  out.step[i] = { ...out.step[i], props: { ...props, [prop]: props[prop] ?? message } };
}

/** Places one `{field, message}`; false when the field is none of the form's. */
function place(out: DraftErrors, field: string, message: string): boolean {
  const step = /^steps\[(\d+)\](?:\.(\w+)(?:\.(.+))?)?$/.exec(field);
  if (step) {
    const [, at, part, prop] = step;
    const i = Number(at);
    if (part === "name") putStep(out, i, "name", message);
    else if (part === "props") putProp(out, i, prop?.split(".")[0] ?? "", message);
    else putStep(out, i, "code", message);
    return true;
  }
  const setting = /^settings(?:\.(retries|concurrency|rate))?/.exec(field);
  if (setting) {
    const key = (setting[1] ?? "retries") as keyof SettingsErrors;
    out.settings[key] ??= message;
    return true;
  }
  if (field === "name") out.name ??= message;
  else if (field.startsWith("trigger")) out.trigger ??= message;
  else if (field === "steps") out.steps ??= message;
  else return false;
  return true;
}

/** The API's error body placed on the form. */
export function draftErrors(body: unknown, steps: StepDraft[]): DraftErrors {
  const e = (body as Envelope | undefined)?.error;
  const out = noErrors();
  let placed = false;
  for (const d of e?.details ?? []) placed = place(out, d.field, d.message) || placed;
  const named = /^step "([^"]+)": ([\s\S]*)$/.exec(e?.message ?? "");
  const at = named ? steps.findIndex((s) => s.name.trim() === named[1]) : -1;
  if (named && at >= 0) {
    putStep(out, at, "code", named[2]);
    placed = true;
  }
  out.form = placed ? "Fix the fields marked in red, then save again." : (e?.message ?? "the request failed");
  return out;
}

/** Whether any part of the form has a problem. */
export const hasErrors = (e: DraftErrors): boolean =>
  Boolean(e.form || e.name || e.trigger || e.steps) || Object.values(e.settings).some(Boolean) || Object.keys(e.step).length > 0;
