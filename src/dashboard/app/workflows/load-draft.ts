import type { paths, TributaryClient } from "../../../client/index.ts";
import { actionStep, codeStep, settingsDraft, triggerDraft, type ActionComponent, type ActionStep, type Draft, type StepDraft } from "./workflow-draft.ts";

// A saved workflow as a draft to edit: GET /v1/workflows/{id} gives each step's code, or the
// component it runs and its props; an action's props form needs that component's prop list,
// read here before the form shows (a registry step by its key, a saved component by its id).

export type Workflow = paths["/v1/workflows/{id}"]["get"]["responses"][200]["content"]["application/json"]["data"];
type SavedStep = Workflow["steps"][number];

/** Props as JSON text to edit, "" for none. */
const propsText = (props: Record<string, unknown>) => (Object.keys(props).length > 0 ? JSON.stringify(props, null, 2) : "");

async function component(api: TributaryClient, ref: ActionStep["ref"]): Promise<ActionComponent | undefined> {
  const res =
    "key" in ref
      ? await api.GET("/v1/components/registry/{key}", { params: { path: { key: ref.key } } })
      : await api.GET("/v1/components/{keyOrId}", { params: { path: { keyOrId: ref.component_id } } });
  // one that can't be read (deleted since) leaves its step editable by name, its props kept as they are
  return res.data?.data;
}

async function stepDraft(api: TributaryClient, s: SavedStep): Promise<StepDraft> {
  if (s.code !== undefined) return codeStep(s.name, s.code, propsText(s.props), s.id);
  const ref = s.key !== undefined ? { key: s.key } : { component_id: s.component_id ?? "" };
  return actionStep(s.name, ref, await component(api, ref), s.props, s.id);
}

export async function loadDraft(api: TributaryClient, w: Workflow): Promise<Draft> {
  return {
    name: w.name,
    trigger: triggerDraft(w.trigger),
    steps: await Promise.all(w.steps.map((s) => stepDraft(api, s))),
    settings: settingsDraft(w.settings),
  };
}
