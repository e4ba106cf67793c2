import type { WorkflowRow } from "../../store/port.ts";

// settings.concurrency and settings.rate (docs/writing-workflows.md), held by the node that drives a
// workflow's runs (its partition's owner, so one count per workflow across nodes): how many of
// its runs are being driven now, and when its recent runs started. A run that may not start yet
// waits in the store as a `queued` run (run-driver.ts) and is taken up, oldest first, when a run
// ends (concurrency) or its window moves on (rate).

export type Admission = { ok: true } | { ok: false; retryAt: number | null };

export class RunGate {
  /** runs of each workflow being driven here now */
  readonly #active = new Map<string, number>();
  /** start times (ms) within the current rate window, oldest first */
  readonly #starts = new Map<string, number[]>();
  /**
   * runs of each workflow turned away here for room (settings.concurrency) and not started since:
   * while there are some, a new run joins the queue behind them. A hint, not a count the store
   * keeps: a queued run cancelled meanwhile is forgotten when the store shows the queue empty.
   */
  readonly #queued = new Map<string, number>();

  /**
   * Whether a run of `w` may start now; if so it is counted (started, and driven until `idle`).
   * If not, when to try again (null: when a run ends).
   */
  tryStart(w: WorkflowRow, now: number): Admission {
    const limit = w.settings?.concurrency;
    if (limit && (this.#active.get(w.id) ?? 0) >= limit) return { ok: false, retryAt: null };
    const rate = w.settings?.rate;
    if (rate) {
      const windowMs = rate.per_seconds * 1000;
      const starts = (this.#starts.get(w.id) ?? []).filter((at) => at > now - windowMs);
      this.#starts.set(w.id, starts);
      if (starts.length >= rate.limit) return { ok: false, retryAt: starts[starts.length - rate.limit]! + windowMs };
      starts.push(now);
    }
    this.busy(w);
    return { ok: true };
  }

  /**
   * Whether a run of `w` coming back from a wait may go on now: while it waited it didn't hold
   * its place, and it doesn't execute beside `concurrency` others now (a rate limits starts, not
   * this). If so it is counted, as tryStart counts.
   */
  tryContinue(w: WorkflowRow): boolean {
    const limit = w.settings?.concurrency;
    if (limit && (this.#active.get(w.id) ?? 0) >= limit) return false;
    this.busy(w);
    return true;
  }

  /**
   * Whether a new run of `w` goes to the end of its queue: runs wait in it for room, and one
   * taking a place that is free for a moment (a run just ended, the limit was raised) would pass
   * them. Runs start in the order they came.
   */
  queueAhead(w: WorkflowRow): boolean {
    return Boolean(w.settings?.concurrency) && (this.#queued.get(w.id) ?? 0) > 0;
  }

  /** a run of `w` waits in its queue for room */
  enqueued(w: WorkflowRow): void {
    this.#queued.set(w.id, (this.#queued.get(w.id) ?? 0) + 1);
  }

  /** a queued run of `w` starts */
  dequeued(w: WorkflowRow): void {
    const n = (this.#queued.get(w.id) ?? 0) - 1;
    if (n > 0) this.#queued.set(w.id, n);
    else this.#queued.delete(w.id);
  }

  /** the store holds no run of `w` waiting for room */
  queueEmpty(w: WorkflowRow): void {
    this.#queued.delete(w.id);
  }

  /** a run of `w` that had started before is driven here from now until `idle` */
  busy(w: WorkflowRow): void {
    if (w.settings?.concurrency) this.#active.set(w.id, (this.#active.get(w.id) ?? 0) + 1);
  }

  idle(w: WorkflowRow): void {
    if (!w.settings?.concurrency) return;
    const n = (this.#active.get(w.id) ?? 0) - 1;
    if (n > 0) this.#active.set(w.id, n);
    else this.#active.delete(w.id);
  }

  /** whether runs of `w` may have to wait (only those workflows are counted) */
  static gated(w: WorkflowRow): boolean {
    return Boolean(w.settings?.concurrency || w.settings?.rate);
  }
}
