// Turns whatever isolated-vm threw while running component code into the invalid_component
// reason a user can act on. isolated-vm reports limits only through error messages.
import type ivm from "isolated-vm";
import { AppError } from "../../lib/errors.ts";

export interface Limits {
  timeoutMs: number;
  memoryMb: number;
  /** ms left of the time budget, at least 1 (0 would mean "no timeout" to isolated-vm) */
  remaining(): number;
}

export function createLimits(timeoutMs: number, memoryMb: number): Limits {
  const deadline = Date.now() + timeoutMs;
  return { timeoutMs, memoryMb, remaining: () => Math.max(1, deadline - Date.now()) };
}

export const NO_WEBASSEMBLY = "the sandbox has no WebAssembly: its memory would not count against the invocation's memory limit (docs/security.md)";

// The first frame in the component's own file, e.g. "component.mjs:3:9".
function location(stack: string | undefined): string | undefined {
  return stack?.match(/component\.m?js:\d+:\d+/)?.[0];
}

export function sandboxError(e: unknown, isolate: ivm.Isolate, limits: Limits): AppError {
  if (e instanceof AppError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (isolate.isDisposed || /memory limit/i.test(message)) {
    return new AppError("invalid_component", `component ran out of memory (limit ${limits.memoryMb} MB)`);
  }
  if (/execution timed out/i.test(message)) {
    return new AppError("invalid_component", `component evaluation timed out (limit ${limits.timeoutMs} ms)`);
  }
  if (/not an instance of `Error`/.test(message)) {
    return new AppError("invalid_component", "component threw a non-Error value while evaluating");
  }
  const name = e instanceof Error ? `${e.name}: ` : "";
  const where = e instanceof Error ? location(e.stack) : undefined;
  // a package that needs WebAssembly (ssh2, Wasm builds) fails at its top level: say why it's missing
  const why = /\bWebAssembly is not defined\b/.test(message) ? `; ${NO_WEBASSEMBLY}` : "";
  return new AppError(
    "invalid_component",
    `component threw while evaluating: ${name}${message}${where ? ` (${where})` : ""}${why}`,
  );
}
