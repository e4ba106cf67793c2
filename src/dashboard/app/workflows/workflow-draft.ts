import type { Trigger } from "./trigger-text.ts";
import { initialValues, type FormValue, type PropDef } from "../deploy/prop-types.ts";

// What the workflow form edits. A step is its own code, or an action: a component (from the
// registry, or saved) run with props. workflow-body.ts turns a draft into the API's body.

interface StepBase {
  /** a React key: steps move, so their index is not one */
  key: number;
  /** the step's id as GET showed it: sent back, so the API keeps its secrets even when renamed */
  id?: string;
  name: string;
}

export interface CodeStep extends StepBase {
  kind: "code";
  code: string;
  /** its props as JSON text, "" for none (a code step declares its own, so they can't be a form) */
  props: string;
}

export interface ActionComponent {
  id: string;
  name: string;
  version: string;
  configurable_props: PropDef[];
}

export interface ActionStep extends StepBase {
  kind: "action";
  /** how the API names the component: a registry step comes back from GET by its key */
  ref: { key: string } | { component_id: string };
  /** undefined when it could not be read: the step's saved props are then sent back as they are */
  component?: ActionComponent;
  values: Record<string, FormValue>;
  /** the props as GET showed them (secrets as {"secret": true}) */
  saved: Record<string, unknown>;
}

export type StepDraft = CodeStep | ActionStep;

export interface TriggerDraft {
  type: "http" | "timer" | "none";
  timer: "interval" | "cron";
  interval: number | string;
  cron: string;
  /** http: the reply waits for a step's $.respond() */
  customResponse: boolean;
}

/** Number inputs: "" is the API's default (no retries, no bound). */
export interface SettingsDraft {
  retries: number | string;
  concurrency: number | string;
  rateLimit: number | string;
  ratePer: number | string;
}

export interface Draft {
  name: string;
  trigger: TriggerDraft;
  steps: StepDraft[];
  settings: SettingsDraft;
}

let nextKey = 1;

export const codeStep = (name: string, code: string, props = "", id?: string): CodeStep => ({ key: nextKey++, kind: "code", name, code, props, ...(id ? { id } : {}) });

export function actionStep(name: string, ref: ActionStep["ref"], component: ActionComponent | undefined, saved: Record<string, unknown> = {}, id?: string): ActionStep {
  const values = component ? initialValues(component.configurable_props, saved, true) : {};
  return { key: nextKey++, kind: "action", name, ref, component, values, saved, ...(id ? { id } : {}) };
}

/** A step name (an identifier) not taken yet: `base`, else base_2, base_3... */
export function freshName(base: string, steps: StepDraft[]): string {
  const words = base.replace(/[^\w$]+/g, "_").replace(/^_+|_+$/g, "").toLowerCase().slice(0, 56);
  const clean = words === "" ? "step" : /^\d/.test(words) ? `step_${words}` : words;
  const taken = new Set(steps.map((s) => s.name.trim()));
  if (!taken.has(clean) && clean !== "trigger") return clean;
  for (let n = 2; ; n++) if (!taken.has(`${clean}_${n}`)) return `${clean}_${n}`;
}

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

export const noSettings = (): SettingsDraft => ({ retries: "", concurrency: "", rateLimit: "", ratePer: "" });

export function newDraft(): Draft {
  return {
    name: "",
    trigger: { type: "http", timer: "interval", interval: 60, cron: "0 * * * *", customResponse: false },
    steps: [codeStep("emit", EXAMPLE_STEP)],
    settings: noSettings(),
  };
}

export function triggerDraft(t: Trigger & { custom_response?: boolean }): TriggerDraft {
  const type = t.type === "http" || t.type === "timer" ? t.type : "none";
  return { type, timer: t.cron ? "cron" : "interval", interval: t.interval_seconds ?? 60, cron: t.cron ?? "0 * * * *", customResponse: t.custom_response === true };
}

export function settingsDraft(s: { retries: number; concurrency: number | null; rate: { limit: number; per_seconds: number } | null }): SettingsDraft {
  return { retries: s.retries || "", concurrency: s.concurrency ?? "", rateLimit: s.rate?.limit ?? "", ratePer: s.rate?.per_seconds ?? "" };
}
