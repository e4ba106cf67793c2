import type { InvocationKind } from "../../runtime/protocol.ts";
import type { Invocations } from "./invocations.ts";
import type { Target } from "./target.ts";
import type { Usage } from "./usage.ts";

// When a user's daily quota is used up, timer ticks are skipped, HTTP endpoints answer 429 and
// deliveries wait (components.md §8). Each refusal is recorded on the source's $errors, at most
// once a minute per source, so a busy endpoint can't flood its own error stream.

const RECORD_EVERY_MS = 60_000;

export class Quotas {
  readonly #usage: Usage;
  readonly #inv: Invocations;
  readonly #lastRecorded = new Map<string, number>();

  constructor(usage: Usage, invocations: Invocations) {
    this.#usage = usage;
    this.#inv = invocations;
  }

  /** true when the source's owner may run now; otherwise records the refusal (rate-limited) */
  async admit(t: Target, kind: InvocationKind): Promise<boolean> {
    const which = this.#usage.exceeded(t.user);
    if (!which) return true;
    const now = Date.now();
    const last = this.#lastRecorded.get(t.source.id) ?? 0;
    if (now - last >= RECORD_EVERY_MS) {
      this.#lastRecorded.set(t.source.id, now);
      await this.#inv.recordError(t, kind, {
        name: "QuotaExceeded",
        message: `the ${which} quota of this account is used up for today (resets at 00:00 UTC)`,
        stack: "QuotaExceeded",
      });
    }
    return false;
  }
}
