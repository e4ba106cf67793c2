import type { ComponentRow, SourceRow, UserRow, WorkflowRow } from "../../store/port.ts";
import type { ComponentMeta, PropDefinition } from "../../runtime/types.ts";
import { runnableSteps, workflowCode } from "../../runtime/workflow-code.ts";
import { sha256Hex } from "../../lib/hash.ts";
import type { TimerConfig } from "../props.ts";
import type { Target } from "../runtime/target.ts";

// A workflow runs on the same machinery as a source: its steps travel to the runner as one
// bundle (runtime/workflow-code.ts) in place of a component's code, and its trigger is
// described as the interface prop a source would have, so timers and the HTTP ingress serve
// both without knowing the difference.

const TIMER: PropDefinition = { name: "timer", type: "$.interface.timer" };
const HTTP: PropDefinition = { name: "http", type: "$.interface.http" };
// the ingress holds the reply for the run, as it does for a customResponse source
const HTTP_RESPONDING: PropDefinition = { ...HTTP, customResponse: true };

export function workflowTimer(w: WorkflowRow): TimerConfig | undefined {
  if (w.trigger.type !== "timer") return undefined;
  return w.trigger.cron ? { cron: w.trigger.cron } : { intervalSeconds: w.trigger.interval_seconds ?? 60 };
}

export function workflowTarget(w: WorkflowRow, user: UserRow, endpointUrl: string | null): Target {
  const timer = workflowTimer(w);
  const props: PropDefinition[] = timer ? [TIMER] : w.trigger.type === "http" ? [w.trigger.custom_response ? HTTP_RESPONDING : HTTP] : [];
  const meta: ComponentMeta = { type: "workflow", props, hooks: [], methods: [], hasRun: true };
  const code = workflowCode(runnableSteps(w.steps));
  const source: SourceRow = {
    id: w.id,
    user_id: w.user_id,
    component_id: w.deployment_id,
    name: w.name,
    name_slug: w.name,
    props: timer ? { timer } : {},
    active: w.active,
    endpoint_key: w.endpoint_key,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
  const component: ComponentRow = {
    id: w.deployment_id,
    user_id: w.user_id,
    registry: false,
    key: null,
    code,
    code_hash: sha256Hex(code),
    bundle: null,
    component_url: null,
    meta,
    created_at: w.updated_at,
    updated_at: w.updated_at,
  };
  return { source, user, component, endpointUrl, workflow: w };
}
