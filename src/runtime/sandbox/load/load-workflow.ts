// Loads a workflow bundle (../workflow-code.ts) into a context: every step is compiled and linked
// as its own module, then the steps' top levels run in order, and the workflow component of
// isolate/workflow.js wraps them. A bad step fails the load with a reason that names it.
import { createHash } from "node:crypto";
import ivm from "isolated-vm";
import { AppError } from "../../../lib/errors.ts";
import type { ComponentMeta } from "../../types.ts";
import { parseWorkflowCode, type WorkflowStepCode } from "../../workflow-code.ts";
import { compileComponent, evaluateComponent, linkProvided, loadComponent, type Compiled } from "./load-component.ts";
import { POOLED, type IsolateCalls } from "./isolate-calls.ts";
import type { PreparedContext } from "./runtime-modules.ts";
import { sandboxError, type Limits } from "../sandbox-errors.ts";

/** What analysis reports for any valid workflow: steps have no props, hooks or methods. */
export function workflowMeta(): ComponentMeta {
  return { type: "workflow", props: [], hooks: [], methods: [], hasRun: true };
}

/** A step that doesn't load: `step "<name>": <reason>`, and the step's cellId for invocations. */
export class StepLoadError extends AppError {
  readonly cellId: string;

  constructor(cellId: string, message: string) {
    super("invalid_component", message);
    this.cellId = cellId;
  }
}

/** The steps of a workflow bundle; undefined for a component's own code. */
export function workflowSteps(code: string): WorkflowStepCode[] | undefined {
  try {
    return parseWorkflowCode(code);
  } catch (e) {
    throw new AppError("invalid_component", e instanceof Error ? e.message : String(e));
  }
}

/**
 * V8 code cache key of a step: by its code, not the bundle's hash, so editing one step of a
 * workflow (a new bundle) keeps the cache of the others.
 */
export function stepCacheKey(code: string): string {
  return `step:${createHash("sha256").update(code).digest("hex")}`;
}

/** The cache keys a bundle's steps use (none for a component's own code), to drop with it. */
export function stepCacheKeys(code: string): string[] {
  try {
    return (parseWorkflowCode(code) ?? []).map((s) => stepCacheKey(s.code));
  } catch {
    return [];
  }
}

// Read inside the isolate: a step's getters run under the time limit, never in the runner.
const CHECK_STEP = `
const c = $0;
if (typeof c !== "object" || c === null || Array.isArray(c)) return "no default export object";
return typeof c.run === "function" ? "" : "has no run method";
`;

/** `cached`: compile through V8's code cache (invocations; analysis caches nothing). */
export async function loadWorkflow(
  isolate: ivm.Isolate,
  { context, runtime }: PreparedContext,
  steps: WorkflowStepCode[],
  limits: Limits,
  cached: boolean,
  calls: IsolateCalls = POOLED,
): Promise<ivm.Reference> {
  const inStep = async <T>(step: WorkflowStepCode, what: () => Promise<T>): Promise<T> => {
    try {
      return await what();
    } catch (e) {
      throw new StepLoadError(step.cellId, `step "${step.name}": ${sandboxError(e, isolate, limits).message}`);
    }
  };
  // All steps compile (and have their imports checked) before anything evaluates: the provided
  // modules need the runtime's host object, which is hidden before the first step's top level.
  const compiled: Compiled[] = [];
  for (const step of steps) {
    compiled.push(await inStep(step, () => compileComponent(isolate, step.code, cached ? stepCacheKey(step.code) : undefined, calls)));
  }
  const provided = new Map<string, ivm.Module>();
  try {
    await linkProvided(isolate, context, new Set(compiled.flatMap((c) => c.specifiers)), provided, calls);
  } catch (e) {
    throw sandboxError(e, isolate, limits);
  }
  const components: ivm.Reference[] = [];
  for (const [i, step] of steps.entries()) {
    const component = await inStep(step, async () => {
      const ref = await evaluateComponent(isolate, context, compiled[i], provided, limits, calls);
      const problem = await calls.evalClosure<unknown>(context, CHECK_STEP, [ref.derefInto()], { timeout: limits.remaining() });
      if (problem !== "") throw new AppError("invalid_component", String(problem));
      return ref;
    });
    components.push(component);
  }
  try {
    const make = await calls.get(runtime, "makeWorkflow");
    const names = new ivm.ExternalCopy(steps.map(({ cellId, name }) => ({ cellId, name }))).copyInto();
    return await calls.apply<ivm.Reference>(make, [names, ...components.map((c) => c.derefInto())], {
      timeout: limits.remaining(),
      result: { reference: true },
    });
  } catch (e) {
    throw sandboxError(e, isolate, limits);
  }
}

/** Loads either kind of code; with `codeHash` (invocations) compiling uses V8's code cache. */
export async function loadCode(
  isolate: ivm.Isolate,
  prepared: PreparedContext,
  code: string,
  limits: Limits,
  codeHash?: string,
  calls: IsolateCalls = POOLED,
): Promise<ivm.Reference> {
  const steps = workflowSteps(code);
  return await (steps
    ? loadWorkflow(isolate, prepared, steps, limits, codeHash !== undefined, calls)
    : loadComponent(isolate, prepared.context, code, limits, codeHash, calls));
}
