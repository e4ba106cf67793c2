import type { UserRow } from "../../store/port.ts";
import { utcDay } from "../../lib/clock.ts";

// Per-user daily usage (docs/api.md, "Usage and quotas"), counted in memory where quota checks read it and
// written to the store with each commit. Loaded from the user row the first time a user runs.

interface Counter {
  day: string;
  invocations: number;
  computeMs: number;
  /** invocations started but not yet counted: a quota check counts them, so a burst can't overrun it */
  running: number;
}

export class Usage {
  readonly #counters = new Map<string, Counter>();

  #counter(user: Pick<UserRow, "id" | "usage_day" | "invocations_used" | "compute_time_used">): Counter {
    const today = utcDay();
    let c = this.#counters.get(user.id);
    if (!c) {
      c =
        user.usage_day === today
          ? { day: today, invocations: user.invocations_used, computeMs: user.compute_time_used, running: 0 }
          : { day: today, invocations: 0, computeMs: 0, running: 0 };
      this.#counters.set(user.id, c);
    }
    if (c.day !== today) Object.assign(c, { day: today, invocations: 0, computeMs: 0 });
    return c;
  }

  /** today's counters, as /users/me shows them */
  current(user: UserRow): { invocations: number; computeMs: number } {
    const c = this.#counter(user);
    return { invocations: c.invocations, computeMs: c.computeMs };
  }

  /** which quota is used up, if any (0 = unlimited) */
  exceeded(user: UserRow): string | undefined {
    const c = this.#counter(user);
    if (user.daily_invocations_quota > 0 && c.invocations + c.running >= user.daily_invocations_quota) return "daily invocations";
    if (user.daily_compute_time_quota > 0 && c.computeMs >= user.daily_compute_time_quota) return "daily compute time";
    return undefined;
  }

  /** an invocation started; `add` (its result) or `end` (no result) follows */
  begin(user: UserRow): void {
    this.#counter(user).running += 1;
  }

  end(user: UserRow): void {
    const c = this.#counter(user);
    c.running = Math.max(0, c.running - 1);
  }

  /** `count`: 0 for a workflow step after a run's first (a run counts once; each step adds time) */
  add(user: UserRow, wallMs: number, count = 1): { user_id: string; day: string; invocations: number; compute_ms: number } {
    const c = this.#counter(user);
    c.running = Math.max(0, c.running - 1);
    const computeMs = Math.max(0, Math.round(wallMs));
    c.invocations += count;
    c.computeMs += computeMs;
    return { user_id: user.id, day: c.day, invocations: count, compute_ms: computeMs };
  }

  /** the users counted here (several nodes: whose totals to read back from the store) */
  users(): string[] {
    return [...this.#counters.keys()];
  }

  /**
   * Several nodes: the store holds every node's counted usage (each writes its own increments
   * about once a second). Taking the larger of the two counts adds the other nodes' usage without
   * counting this node's twice: neither count exceeds the true total.
   */
  merge(user: Pick<UserRow, "id" | "usage_day" | "invocations_used" | "compute_time_used">): void {
    const c = this.#counters.get(user.id);
    if (!c || c.day !== user.usage_day) return;
    c.invocations = Math.max(c.invocations, user.invocations_used);
    c.computeMs = Math.max(c.computeMs, user.compute_time_used);
  }

  forget(userId: string): void {
    this.#counters.delete(userId);
  }
}
