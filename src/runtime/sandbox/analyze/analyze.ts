// Runner side of `analyze`: a fresh isolate per call, disposed afterwards, so nothing one
// component does at its top level can leak into the next analysis.
import ivm from "isolated-vm";
import { AppError } from "../../../lib/errors.ts";
import type { ComponentMeta } from "../../types.ts";
import type { AnalyzeRequest } from "../../protocol.ts";
import { describeComponent } from "./describe.ts";
import { hostReference } from "../host-reference.ts";
import { loadComponent } from "../load/load-component.ts";
import { loadWorkflow, workflowMeta, workflowSteps } from "../load/load-workflow.ts";
import { parseDescribeResult } from "./meta.ts";
import { prepareContext } from "../load/runtime-modules.ts";
import { createLimits, sandboxError } from "../sandbox-errors.ts";

const MAX_META_CHARS = 1024 * 1024;
const DESCRIBE = `return (${describeComponent.toString()})($0);`;

/** `started` is called once the isolate is ready, before any of the component's code runs. */
export async function analyze(req: AnalyzeRequest, started: () => void = () => {}): Promise<ComponentMeta> {
  const limits = createLimits(req.timeoutMs, req.memoryMb);
  const isolate = new ivm.Isolate({ memoryLimit: req.memoryMb });
  try {
    const prepared = await prepareContext(isolate, hostReference());
    const { context } = prepared;
    started();
    // A workflow describes itself: its steps are only checked (each loads and has a run method).
    const steps = workflowSteps(req.code);
    if (steps) {
      await loadWorkflow(isolate, prepared, steps, limits, false);
      return workflowMeta();
    }
    const component = await loadComponent(isolate, context, req.code, limits);
    let json: unknown;
    try {
      json = await context.evalClosure(DESCRIBE, [component.derefInto()], {
        timeout: limits.remaining(),
        result: { copy: true },
      });
    } catch (e) {
      throw sandboxError(e, isolate, limits);
    }
    // The description travels to the host and into API responses; a component can't make it huge.
    if (typeof json === "string" && json.length > MAX_META_CHARS) {
      throw new AppError("invalid_component", `component description is larger than ${MAX_META_CHARS} characters`);
    }
    const result = parseDescribeResult(json);
    if (!result.ok) throw new AppError("invalid_component", result.message);
    return result.meta;
  } finally {
    if (!isolate.isDisposed) isolate.dispose();
  }
}
