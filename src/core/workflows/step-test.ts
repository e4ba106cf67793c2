import type { RunRow, RunStepRow, UserRow, WorkflowRow, WorkflowStepRow } from "../../store/port.ts";
import type { InvokeResult, LogLine } from "../../runtime/protocol.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { StepInvocation } from "../runtime/target.ts";
import { notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { newRunState, resultMember, stepContext } from "./run-record.ts";
import { workflowTarget } from "./workflow-target.ts";

// Testing a step on a past run, without committing (POST /v1/workflows/{id}/steps/{name}/test):
// the step (as saved, or a draft of its code and props) runs once in the sandbox with `steps` as
// that run had them before it (its trigger event included). It is a dry run: nothing commits, no
// run is recorded, its data store writes and $.send/$.respond calls come back as a report instead
// of happening (data store reads see the store). Bounded like any invocation (time, memory, output).

export interface StepTestInput {
  run_id: string;
  code?: string;
  props?: Record<string, unknown>;
}

export interface StepTestResult {
  return_value: unknown;
  exports: Record<string, unknown>;
  logs: LogLine[];
  error?: { name: string; message: string; stack: string };
  duration_ms: number;
  /** what it would have sent with $.send.http / $.send.email: reported, not sent */
  sends: Array<{ kind: "http" | "email"; request: unknown }>;
  /** what it answered with $.respond: reported, nobody gets it */
  response?: { status: number; headers: Record<string, string>; body: unknown };
  /** data store writes it made, per store: reported, not written */
  data_store_writes: Array<{ store: string; operations: number }>;
  /** it asked to wait ($.flow.delay, suspend, rerun) or exited: reported, nothing waits */
  flow?: string;
}

export interface StepTestDeps {
  invocations: Invocations;
  version: string;
  email: boolean;
  /** the steps of `w` with the named one replaced by the draft (validated and bundled as a save would) */
  draft: (user: UserRow, w: WorkflowRow, step: WorkflowStepRow, input: { code?: string; props?: Record<string, unknown> }) => Promise<WorkflowStepRow>;
  /** the user's run of the workflow, with its steps; a 404 for any other */
  run: (user: UserRow, w: WorkflowRow, runId: string) => Promise<{ run: RunRow; steps: RunStepRow[] }>;
}

export async function testStep(d: StepTestDeps, user: UserRow, w: WorkflowRow, name: string, input: StepTestInput): Promise<StepTestResult> {
  const idx = w.steps.findIndex((s) => s.name === name);
  if (idx < 0) throw notFound("step");
  const { run, steps } = await d.run(user, w, input.run_id);
  const saved = w.steps[idx]!;
  const step = input.code === undefined && input.props === undefined ? saved : await d.draft(user, w, saved, input);
  const tested: WorkflowRow = { ...w, steps: w.steps.map((s, i) => (i === idx ? step : s)) };
  const t = workflowTarget(tested, user, null);
  // a context of its own on the runner: the workflow's warm ones keep their code
  t.source = { ...t.source, id: `${w.id}~test` };
  const before = new Set(tested.steps.slice(0, idx).map((s) => s.name));
  const results = steps.filter((s) => s.status === "succeeded" && before.has(s.name)).map(resultMember);
  const context = newRunState(tested, user.id, { id: run.id, startedAt: run.started_at_ms, trigger: run.trigger_kind, eventJson: run.trigger_event }, d.version).context;
  const inv: StepInvocation = {
    run: { customResponse: false, context, step: idx, runs: 1, results: `{${results.join(",")}}`, ...(d.email ? { email: true as const } : {}) },
    ctx: { ...stepContext(run), runId: newId("test_") },
    newRun: false,
    countsRun: false,
    settle: () => {
      throw new Error("a step's test commits nothing");
    },
  };
  const r = await d.invocations.invoke(t, "run", undefined, { dryRun: true, step: inv });
  return report(r, step.id);
}

function report(r: InvokeResult, cellId: string): StepTestResult {
  const cell = r.steps?.find((s) => s.cellId === cellId);
  const parse = (json: string | undefined) => (json === undefined ? null : (JSON.parse(json) as unknown));
  const out: StepTestResult = {
    return_value: parse(cell?.returnValue),
    exports: (parse(cell?.exports) as Record<string, unknown> | null) ?? {},
    logs: r.logs,
    duration_ms: cell ? cell.endedAt - cell.startedAt : Math.round(r.wallMs),
    sends: (cell?.sends ?? []).map((s) => ({ kind: s.kind, request: JSON.parse(s.request) as unknown })),
    data_store_writes: (r.dataStores ?? []).map((w) => ({ store: w.store, operations: w.ops.length })),
  };
  if (r.error) out.error = { name: r.error.name, message: r.error.message, stack: r.error.stack };
  if (r.response) out.response = { status: r.response.status, headers: r.response.headers ?? {}, body: r.response.body ?? null };
  if (cell?.flow) out.flow = cell.flow.kind;
  else if (cell?.status === "exited") out.flow = "exit";
  return out;
}
