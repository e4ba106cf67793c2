import { collect } from "../deploy/prop-types.ts";
import { hasErrors, noErrors, type DraftErrors } from "./draft-errors.ts";
import type { ActionStep, Draft, SettingsDraft, StepDraft, TriggerDraft } from "./workflow-draft.ts";

// A draft as the body of POST/PUT /v1/workflows. What can be told wrong without the API (props
// that are not JSON, a number that isn't one) is refused here, on the field, before sending.

export function triggerBody(t: TriggerDraft): Record<string, unknown> {
  if (t.type === "http") return t.customResponse ? { type: "http", custom_response: true } : { type: "http" };
  if (t.type !== "timer") return { type: t.type };
  return t.timer === "cron" ? { type: "timer", cron: t.cron.trim() } : { type: "timer", interval_seconds: Number(t.interval) };
}

const given = (v: number | string) => String(v).trim() !== "";

/** Every setting is sent: a PUT without one would keep the workflow's, and an empty field means the default. */
export function settingsBody(s: SettingsDraft): Record<string, unknown> {
  return {
    retries: given(s.retries) ? Number(s.retries) : 0,
    concurrency: given(s.concurrency) ? Number(s.concurrency) : null,
    // half a rate is sent as it is, for the API to name what is missing
    rate: given(s.rateLimit) || given(s.ratePer) ? { limit: given(s.rateLimit) ? Number(s.rateLimit) : null, per_seconds: given(s.ratePer) ? Number(s.ratePer) : null } : null,
  };
}

function actionProps(s: ActionStep): { props: Record<string, unknown>; errors: Record<string, string> } {
  if (!s.component) return { props: s.saved, errors: {} };
  const defs = s.component.configurable_props;
  const { configured, errors } = collect(defs, s.values, true);
  for (const p of defs) {
    // a value emptied in the form is cleared (null): left out, the API would keep the stored one.
    // A secret left empty is left out, and so kept.
    if (!(p.name in configured) && p.name in s.saved && !p.secret && s.values[p.name] !== undefined) configured[p.name] = null;
  }
  return { props: configured, errors };
}

function stepBody(s: StepDraft, i: number, errors: DraftErrors): Record<string, unknown> {
  const base = { ...(s.id ? { id: s.id } : {}), name: s.name.trim() };
  if (s.kind === "action") {
    const { props, errors: local } = actionProps(s);
    if (Object.keys(local).length > 0) errors.step[i] = { ...errors.step[i], props: local };
    return { ...base, ...s.ref, props };
  }
  if (s.props.trim() === "") return { ...base, code: s.code };
  try {
    const props: unknown = JSON.parse(s.props);
    if (typeof props !== "object" || props === null || Array.isArray(props)) throw new Error();
    return { ...base, code: s.code, props };
  } catch {
    errors.step[i] = { ...errors.step[i], props: { "": 'must be a JSON object, e.g. {"label": "{{ steps.trigger.event.body.name }}"}' } };
    return base;
  }
}

/** The body to send, or the problems found before sending. */
export function draftBody(d: Draft): { body: Record<string, unknown>; errors?: DraftErrors } {
  const errors = noErrors();
  const body = {
    name: d.name.trim(),
    trigger: triggerBody(d.trigger),
    steps: d.steps.map((s, i) => stepBody(s, i, errors)),
    settings: settingsBody(d.settings),
  };
  if (!hasErrors(errors)) return { body };
  errors.form = "Fix the fields marked in red, then save again.";
  return { body, errors };
}
