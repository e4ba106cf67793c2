import { AppError } from "../../lib/errors.ts";
import type { InvocationKind, InvokeResult } from "../../runtime/protocol.ts";
import type { Invocations } from "./invocations.ts";
import type { Target } from "./target.ts";

// Hooks around source changes (docs/writing-components.md, "Hooks and the lifecycle"): create = deploy + activate; update =
// deactivate, swap, activate; disable = deactivate; enable = activate; delete = deactivate.
// A hook that throws on create or update fails the call with 422 hook_failed and leaves
// nothing half-made, so the new version's hooks run dry and commit only once all succeeded.

interface DryResult {
  kind: InvocationKind;
  startedAt: number;
  result: InvokeResult;
}

function hasHook(t: Target, kind: InvocationKind): boolean {
  return t.component.meta.hooks.includes(kind);
}

export class Lifecycle {
  readonly #inv: Invocations;

  constructor(invocations: Invocations) {
    this.#inv = invocations;
  }

  /** Runs `kinds` dry, in order; throws hook_failed at the first that fails. */
  async dry(t: Target, kinds: InvocationKind[]): Promise<DryResult[]> {
    const out: DryResult[] = [];
    for (const kind of kinds) {
      if (!hasHook(t, kind)) continue;
      const startedAt = Date.now();
      const result = await this.#inv.invoke(t, kind, undefined, { dryRun: true });
      if (result.error) {
        throw new AppError("hook_failed", `the ${kind} hook failed: ${result.error.name}: ${result.error.message}`);
      }
      out.push({ kind, startedAt, result });
    }
    return out;
  }

  /** Commits what dry() returned, once the change they belong to is stored. */
  async commit(t: Target, results: DryResult[]): Promise<void> {
    for (const r of results) await this.#inv.commit(t, r.kind, r.startedAt, r.result);
  }

  /** Runs a hook for real (its result is committed, a failure lands on $errors). */
  async run(t: Target, kind: InvocationKind): Promise<InvokeResult | undefined> {
    if (!hasHook(t, kind)) return undefined;
    return this.#inv.invoke(t, kind, undefined);
  }
}
