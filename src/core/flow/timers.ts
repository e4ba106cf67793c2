import type { Store } from "../../store/port.ts";
import { defaultTimer, type TimerConfig } from "../props.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { Target } from "../runtime/target.ts";
import type { Quotas } from "../runtime/quotas.ts";
import { TimerWarmup } from "./timer-warmup.ts";
import { afterTick, nextAfter } from "./tick-times.ts";
import { MAX_TIMER_MS } from "../../lib/clock.ts";

// Timer props (docs/writing-components.md, "Timers") fire `run` with {timestamp, interval_seconds} or {timestamp,
// cron}. The next due time is stored with each tick's commit, so after a restart a tick that
// was missed while the service was down runs once, at start, and not once per missed interval.

// setTimeout can't wait longer than ~24.8 days (MAX_TIMER_MS); longer waits are taken in steps.

export function timerOf(t: Target): TimerConfig | undefined {
  const prop = t.component.meta.props.find((p) => p.type === "$.interface.timer");
  if (!prop) return undefined;
  return (t.source.props[prop.name] as TimerConfig | undefined) ?? defaultTimer(prop);
}

/** The event a timer tick runs with (docs/writing-components.md, "Timers"). */
export function timerEvent(timer: TimerConfig, nowMs: number): object {
  const timestamp = Math.floor(nowMs / 1000);
  return "cron" in timer ? { timestamp, cron: timer.cron } : { timestamp, interval_seconds: timer.intervalSeconds };
}


export class Timers {
  readonly #store: Store;
  readonly #inv: Invocations;
  readonly #quotas: Quotas;
  readonly #handles = new Map<string, NodeJS.Timeout>();
  /** schedule() calls under way per source: an older one that finishes last doesn't arm */
  readonly #calls = new Map<string, number>();
  /**
   * Sources with a tick running, and the tick that came due meanwhile (if any). A source's ticks
   * never pile up in memory: while one runs, later ones coalesce into a single late tick.
   */
  readonly #running = new Map<string, { t: Target; event: object; next: number } | null>();
  /**
   * The due time after the tick running now (or owed): its commit stores it. Until then the store
   * still holds the running tick's own due time, which a schedule() must not fire again.
   */
  readonly #nextDue = new Map<string, number>();
  readonly #log: (err: unknown, what: string) => void;
  #closed = false;
  readonly #warmup: TimerWarmup;

  /** whether this node runs the source's ticks (several nodes: the partition's owner does) */
  readonly #owns: (sourceId: string) => boolean;

  constructor(
    store: Store,
    invocations: Invocations,
    quotas: Quotas,
    log: (err: unknown, what: string) => void,
    owns: (sourceId: string) => boolean = () => true,
  ) {
    this.#log = log;
    this.#owns = owns;
    this.#store = store;
    this.#inv = invocations;
    this.#quotas = quotas;
    this.#warmup = new TimerWarmup((t, due) => invocations.warm(t, due), log);
  }

  /**
   * Starts (or restarts) the source's timer; a stored due time in the past fires at once.
   * `fresh` (a new or changed timer) starts the schedule from now, on whichever node took the
   * change; only the source's owner arms it (another node's owner reads the stored due time).
   */
  async schedule(t: Target, fresh = false): Promise<void> {
    const id = t.source.id;
    this.cancel(id);
    // two schedules of one source can overlap (a change and a partition gained): only the
    // latest arms, so a source never has two timer chains
    const timer = timerOf(t);
    if (!timer || !t.source.active || this.#closed) return;
    const call = (this.#calls.get(id) ?? 0) + 1;
    this.#calls.set(id, call);
    try {
      const stored = fresh ? undefined : await this.#store.events.timer(id);
      const after = this.#nextDue.get(id);
      const due = stored === undefined ? nextAfter(timer, Date.now()) : after !== undefined && after > stored ? after : stored;
      // stored at once, so a restart before the first tick still knows when it was due
      if (stored === undefined) await this.#store.events.setTimer(id, due);
      // a later schedule() or a cancel() came meanwhile: theirs is the word
      if (this.#calls.get(id) !== call) return;
      if (this.#owns(id)) {
        this.#arm(t, timer, due);
        if (stored === undefined) this.#warmup.add(t, due);
      }
    } finally {
      if (this.#calls.get(id) === call) this.#calls.delete(id);
    }
  }

  /** Stops the timers of the sources `which` picks (their partition went to another node). */
  cancelWhere(which: (sourceId: string) => boolean): void {
    for (const id of [...this.#handles.keys()]) if (which(id)) this.cancel(id);
  }

  /** the sources whose timers are armed here */
  armedIds(): string[] {
    return [...this.#handles.keys()];
  }

  /** whether the source's timer is armed here, or being armed */
  armed(sourceId: string): boolean {
    return this.#handles.has(sourceId) || this.#calls.has(sourceId);
  }

  cancel(sourceId: string): void {
    // a schedule() still reading the store must not arm after this
    const pending = this.#calls.get(sourceId);
    if (pending !== undefined) this.#calls.set(sourceId, pending + 1);
    // a tick owed to the old timer (its source changed, or went) is not run after it
    if (this.#running.get(sourceId)) this.#running.set(sourceId, null);
    const h = this.#handles.get(sourceId);
    if (h) clearTimeout(h);
    this.#handles.delete(sourceId);
  }

  close(): void {
    this.#closed = true;
    this.#warmup.close();
    for (const h of this.#handles.values()) clearTimeout(h);
    this.#handles.clear();
  }

  get size(): number {
    return this.#handles.size;
  }

  #arm(t: Target, timer: TimerConfig, due: number): void {
    const previous = this.#handles.get(t.source.id);
    if (previous) clearTimeout(previous);
    this.#handles.delete(t.source.id);
    if (!Number.isFinite(due) || this.#closed) return;
    const wait = Math.max(0, due - Date.now());
    const handle = setTimeout(
      () => (wait >= MAX_TIMER_MS ? this.#arm(t, timer, due) : this.#fire(t, timer, due)),
      Math.min(wait, MAX_TIMER_MS),
    );
    this.#handles.set(t.source.id, handle);
  }

  #fire(t: Target, timer: TimerConfig, due: number): void {
    // the partition went to another node between arming and firing: its owner runs the tick
    if (!this.#owns(t.source.id)) {
      this.cancel(t.source.id);
      return;
    }
    const { now, next } = afterTick(timer, due, Date.now());
    this.#arm(t, timer, next);
    this.#tick(t, timerEvent(timer, now), next);
  }

  #tick(t: Target, event: object, next: number): void {
    const id = t.source.id;
    this.#nextDue.set(id, next);
    if (this.#running.has(id)) {
      this.#running.set(id, { t, event, next });
      return;
    }
    this.#running.set(id, null);
    void this.#quotas
      .admit(t, "run")
      .then((ok) => {
        if (ok) return this.#inv.invoke(t, "run", JSON.stringify(event), { timerNextDueMs: next });
        return undefined;
      })
      .catch((e) => {
        // a failed run is on $errors already; this is the store failing, and the tick reruns at
        // start (admitted again then): this one's reservation goes back
        this.#log(e, "committing a timer tick failed");
        void this.#quotas.release(t).catch(() => undefined);
      })
      .finally(() => {
        const owed = this.#running.get(id);
        this.#running.delete(id);
        if (owed && !this.#closed && this.#handles.has(id)) this.#tick(owed.t, owed.event, owed.next);
        else this.#nextDue.delete(id);
      });
  }
}
