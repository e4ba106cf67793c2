import type { Trigger } from "./trigger-text.ts";

// What the workflow form edits, and how it becomes the body of POST/PUT /v1/workflows. The API's
// problems are put back where they belong: a field's details under its input, a step that doesn't
// load (422: `step "<name>": <reason>`) under that step's code.

export interface StepDraft {
  /** a React key: steps move, so their index is not one */
  key: number;
  name: string;
  code: string;
}

export interface TriggerDraft {
  type: "http" | "timer" | "none";
  timer: "interval" | "cron";
  interval: number | string;
  cron: string;
}

export interface Draft {
  name: string;
  trigger: TriggerDraft;
  steps: StepDraft[];
}

let nextKey = 1;
export const stepDraft = (name: string, code: string): StepDraft => ({ key: nextKey++, name, code });

/** A first step that runs as it is: it emits what triggered the run. */
export const EXAMPLE_STEP = `export default {
  async run({ steps, $ }) {
    // steps.trigger.event started this run: an HTTP request, a timer tick, or an event
    const event = steps.trigger.event;
    const received = event?.body ?? event;
    $.send.emit({ raw_event: { received, at: new Date().toISOString() } });
    return received;
  },
};`;

/** A later step: it sees the earlier steps' results as steps.<name>.$return_value. */
export const NEXT_STEP = (previous: string | undefined) => `export default {
  async run({ steps, $ }) {
    const input = ${previous ? `steps.${previous}.$return_value` : "steps.trigger.event"};
    return input;
  },
};`;

export function newDraft(): Draft {
  return { name: "", trigger: { type: "http", timer: "interval", interval: 60, cron: "0 * * * *" }, steps: [stepDraft("emit", EXAMPLE_STEP)] };
}

export function triggerDraft(t: Trigger): TriggerDraft {
  const type = t.type === "http" || t.type === "timer" ? t.type : "none";
  return { type, timer: t.cron ? "cron" : "interval", interval: t.interval_seconds ?? 60, cron: t.cron ?? "0 * * * *" };
}

export function triggerBody(t: TriggerDraft): Record<string, unknown> {
  if (t.type !== "timer") return { type: t.type };
  return t.timer === "cron" ? { type: "timer", cron: t.cron.trim() } : { type: "timer", interval_seconds: Number(t.interval) };
}

export interface DraftErrors {
  form?: string;
  name?: string;
  trigger?: string;
  steps?: string;
  /** by step index: the name's problem and the code's */
  step: Record<number, { name?: string; code?: string }>;
}

interface Envelope {
  error?: { message?: string; details?: { field: string; message: string }[] };
}

/** The API's error placed on the form: by field, or on the step a 422 names. */
export function draftErrors(body: unknown, steps: StepDraft[] | undefined): DraftErrors {
  const e = (body as Envelope | undefined)?.error;
  const out: DraftErrors = { step: {} };
  const put = (i: number, part: "name" | "code", message: string) => {
    out.step[i] = { ...out.step[i], [part]: out.step[i]?.[part] ?? message };
  };
  let placed = false;
  for (const d of e?.details ?? []) {
    const m = /^steps\[(\d+)\](?:\.(name|code))?/.exec(d.field);
    placed = true;
    if (m) put(Number(m[1]), (m[2] as "name" | "code" | undefined) ?? "code", d.message);
    else if (d.field === "name") out.name ??= d.message;
    else if (d.field.startsWith("trigger")) out.trigger ??= d.message;
    else if (d.field === "steps") out.steps ??= d.message;
    else placed = false;
  }
  const named = /^step "([^"]+)": ([\s\S]*)$/.exec(e?.message ?? "");
  const at = named && steps ? steps.findIndex((s) => s.name.trim() === named[1]) : -1;
  if (named && at >= 0) {
    put(at, "code", named[2]);
    placed = true;
  }
  out.form = placed ? "Fix the fields marked in red, then save again." : (e?.message ?? "the request failed");
  return out;
}
