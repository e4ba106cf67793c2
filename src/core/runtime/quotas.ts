import type { InvocationKind } from "../../runtime/protocol.ts";
import type { Invocations } from "./invocations.ts";
import type { Target } from "./target.ts";
import type { Usage } from "./usage.ts";
import type { UserStore } from "../../store/port.ts";
import { utcDay } from "../../lib/clock.ts";

// When a user's daily quota is used up, timer ticks are skipped, HTTP endpoints answer 429 and
// deliveries wait (docs/writing-components.md, "Quotas"). Each refusal is recorded on the source's $errors, at most
// once a minute per source, so a busy endpoint can't flood its own error stream.
//
// A run is counted against the invocations quota when it is accepted: admit() reserves it in the
// store, with one conditional UPDATE that every node shares (store/queries/users.ts), so several
// nodes, and a burst that waits in the inbox before it runs, together accept at most the quota.
// The memory counts (usage.ts) decide first: a user they show over the quota costs no write.
// Compute time can't be known before a run, so it is checked against what earlier runs used:
// the runs accepted while the last ones run can overrun it (docs/operations.md says so).

const RECORD_EVERY_MS = 60_000;

export class Quotas {
  readonly #usage: Usage;
  readonly #inv: Invocations;
  readonly #lastRecorded = new Map<string, number>();

  readonly #users: UserStore;

  constructor(usage: Usage, invocations: Invocations, users: UserStore) {
    this.#usage = usage;
    this.#inv = invocations;
    this.#users = users;
  }

  /**
   * true when the source's owner may run now (the run is reserved: run it, or release() it);
   * otherwise records the refusal (rate-limited)
   */
  async admit(t: Target, kind: InvocationKind): Promise<boolean> {
    let which = this.#usage.exceeded(t.user);
    if (!which && t.user.daily_invocations_quota > 0 && !(await this.#users.reserveInvocation(t.user.id, utcDay()))) {
      which = "daily invocations";
    }
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

  /** An admitted run that will never happen (its acceptance failed): its reservation goes back. */
  async release(t: Target): Promise<void> {
    if (t.user.daily_invocations_quota > 0) await this.#users.releaseInvocation(t.user.id, utcDay());
  }
}
