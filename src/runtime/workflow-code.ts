// A workflow travels to the sandbox as ONE component code string, so everything built for
// sources (code hashes, needCode resends, warm instances, limits, analysis) carries workflows
// unchanged. The runner recognizes the bundle by its leading marker and runs the steps in order
// (sandbox/load/load-workflow.ts). Imports nothing: the host and the runner both use it.

export interface WorkflowStepCode {
  /** the step's `c_...` id, reported back as `error.cellId` when the step fails */
  cellId: string;
  /** the key of its result in `steps` (`steps.<name>.$return_value`) */
  name: string;
  /** the step's module source (ESM or CommonJS), as for a component */
  code: string;
}

/**
 * Starts every workflow bundle. It is a comment, so no bundle is mistaken for a component's
 * source; the host must still refuse source code that starts with it (see parseWorkflowCode).
 */
export const WORKFLOW_MARKER = "/*tributary:workflow*/";

/** The steps as they run: each step's bundle when its code needed one, else its code. */
export function runnableSteps(steps: Array<{ id: string; name: string; code: string; bundle?: string }>): WorkflowStepCode[] {
  return steps.map((s) => ({ cellId: s.id, name: s.name, code: s.bundle ?? s.code }));
}

/** The component code of a workflow; deterministic, so equal steps give an equal code hash. */
export function workflowCode(steps: WorkflowStepCode[]): string {
  return WORKFLOW_MARKER + JSON.stringify({ steps: steps.map(({ cellId, name, code }) => ({ cellId, name, code })) });
}

/**
 * The steps of a workflow bundle, or undefined when `code` doesn't start with the marker (it is a
 * component's own code). Throws an Error when the marker is there but the rest is malformed.
 */
export function parseWorkflowCode(code: string): WorkflowStepCode[] | undefined {
  if (!code.startsWith(WORKFLOW_MARKER)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(code.slice(WORKFLOW_MARKER.length));
  } catch {
    throw new Error("malformed workflow code: not JSON after the marker");
  }
  const steps = typeof parsed === "object" && parsed !== null ? (parsed as { steps?: unknown }).steps : undefined;
  if (!Array.isArray(steps)) throw new Error("malformed workflow code: no steps array");
  return steps.map((s: unknown, i) => {
    const { cellId, name, code } = (typeof s === "object" && s !== null ? s : {}) as Record<string, unknown>;
    if (typeof cellId !== "string" || typeof name !== "string" || typeof code !== "string") {
      throw new Error(`malformed workflow code: step ${i} needs string cellId, name and code`);
    }
    return { cellId, name, code };
  });
}
