// The one function the isolate may call on the runner (isolate/host.js): stateless ops for the
// globals, plus, during an invocation, the ops that touch its state.
import ivm from "isolated-vm";
import { HOST_OPS } from "./host-ops.ts";
import { withoutHostPaths } from "./host-paths.ts";

/** the ops of an invocation running now, by name: runInvocationOp (invocation-ops.ts) */
export type InvocationOps = (op: string, args: unknown[]) => unknown;

/** Without invocation ops (analysis), console output goes nowhere and the rest is unavailable. */
export function hostReference(invocationOps?: InvocationOps): ivm.Reference {
  return new ivm.Reference((op: unknown, ...args: unknown[]) => {
    try {
      if (typeof op !== "string") throw new TypeError("bad host call");
      if (Object.hasOwn(HOST_OPS, op)) return HOST_OPS[op](...args);
      if (invocationOps) return invocationOps(op, args);
      if (op === "log") return true;
      throw new Error(`${op === "async" ? "fetch" : op} is not available while the component is being analyzed`);
    } catch (e) {
      throw withoutRunnerFrames(e);
    }
  });
}

/**
 * An error the runner's code threw for the component enters the isolate with its name and message
 * only: its stack is the runner's (frames and paths of this installation), none of the component's.
 */
function withoutRunnerFrames(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  e.message = withoutHostPaths(e.message);
  e.stack = `${e.name}: ${e.message}`;
  return e;
}
