import type { CommitBatch, Store } from "../../store/port.ts";
import { DependentPartError, isStorageFault } from "./poison.ts";
import { noMetrics, type CoreMetrics } from "./metrics.ts";

// Group commit: results that finish while a transaction is being written wait for
// the next one, and each transaction carries everything that queued up. When idle, a result
// commits on the next tick alone. Busy (a commit ended under BUSY_WITHIN_MS ago), a small group
// waits GATHER_MS for more, as PostgreSQL's commit_delay does: results reach us one runner
// message at a time, so without it a drain committed ~4 events per transaction, and the fixed
// cost of each (begin, commit, emitter state, stream count) made SQL 50 µs per event; gathered,
// ~17 per transaction and 34 µs (overload bench, statement timings). It adds at most GATHER_MS
// to an event's latency, and only when events follow each other that closely anyway, and more
// results are on their way (`expecting`): a workflow run's steps commit back to back, each waiting
// for the last, and gathering with nothing else coming only added GATHER_MS to every step.
// A group that fails for a reason of its own (not the store being unavailable) is committed again
// part by part, so one result the store refuses fails alone instead of taking its group with it.

export type CommitPart = Partial<CommitBatch>;

/** the emitter state a part was computed on: its emitter, and that state's epoch (event-rows.ts) */
export interface CommitBasis {
  emitter: string;
  epoch: number;
}

interface Waiter {
  part: CommitPart;
  basis: CommitBasis | undefined;
  resolve: () => void;
  reject: (e: unknown) => void;
}

const MAX_EVENTS_PER_TX = 2000;
const GATHER_MS = 2;
const BUSY_WITHIN_MS = 5;
/** a group this large commits at once: it already spreads the fixed cost */
const GATHER_UNTIL_EVENTS = 256;
// Usage counters live in memory (core/usage.ts, which quotas read); the store's copy is what
// /users/me shows after a restart. Writing it once a second rather than with every group saves
// an UPDATE per transaction; a crash can forget at most a second of counted usage.
const USAGE_EVERY_MS = 1000;

function emptyBatch(): CommitBatch {
  return { events: [], states: [], inboxDone: [], timers: [], usage: [], trims: [], deliveries: [], deliveriesDone: [], runs: [], runSteps: [], runTrims: [], dataStores: [], sends: [] };
}

export class CommitQueue {
  readonly #store: Store;
  #batch = emptyBatch();
  #waiters: Waiter[] = [];
  #running: Promise<void> | null = null;
  #scheduled = false;
  #usage: CommitBatch["usage"] = [];
  #usageWrittenAt = 0;
  #lastCommitAt = -Infinity;
  /** the group queued now has an urgent part */
  #urgent = false;
  readonly #metrics: CoreMetrics;
  /** how many results are on their way (invocations running): gathering waits only for those */
  expecting: () => number = () => 1;
  /** hears how many inbox rows a commit consumed (backlog.ts: room for as many) */
  onInboxDone: (n: number) => void = () => {};
  /**
   * Per emitter, the newest state epoch a part of which failed to commit. A part computed on that
   * state or an older one (its db, its dedupe memory include the failed part's doing) must not
   * commit: it fails too, innocent (DependentPartError), and runs again from what the store has.
   * Before, the later part committed alone stored the failed part's dedupe memory without its
   * events, and the failed run, run again, had them dropped as duplicates.
   */
  readonly #failed = new Map<string, number>();

  constructor(store: Store, metrics: CoreMetrics = noMetrics) {
    this.#store = store;
    this.#metrics = metrics;
  }

  /**
   * Resolves once the part is durably committed; rejects when its transaction failed. `urgent`:
   * the work's next move waits on this commit (a workflow step: its run's next step, or its
   * reply), so its group is not held back to gather more.
   */
  add(part: CommitPart, opts: { urgent?: boolean; basis?: CommitBasis } = {}): Promise<void> {
    const { urgent = false, basis } = opts;
    if (this.#dependent(basis)) return Promise.reject(new DependentPartError(basis!.emitter));
    merge(this.#batch, part);
    if (part.usage) this.#usage.push(...part.usage);
    if (urgent) this.#urgent = true;
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ part, basis, resolve, reject }));
    this.#schedule();
    return done;
  }

  /**
   * Resolves when everything queued so far is committed (or failed), the usage counted since its
   * last write included. A store that can't take that usage (it is failing as the service stops)
   * is tried twice, not for ever: the stop must end, and what is lost is what a crash would lose
   * (at most a second of counted usage).
   */
  async drain(): Promise<void> {
    for (let tries = 0; ; tries++) {
      while (this.#running || this.#waiters.length > 0) {
        if (this.#running) await this.#running.catch(() => {});
        else await new Promise((r) => setImmediate(r));
      }
      if (this.#usage.length === 0 || tries >= 2) return;
      this.#usageWrittenAt = 0;
      await this.add({}).catch(() => {});
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    const go = () => {
      this.#scheduled = false;
      this.#flush();
    };
    // Busy (the last commit ended moments ago) and little waiting: gather a little longer.
    // Not when a run waits on it: each of its steps waited the gather out, and under load the
    // steps' commits gated the runs (3-step bench: +10-15% runs/s without).
    const busy =
      !this.#urgent && performance.now() - this.#lastCommitAt < BUSY_WITHIN_MS && this.#batch.events.length < GATHER_UNTIL_EVENTS && this.expecting() > 0;
    if (busy) setTimeout(go, GATHER_MS);
    else setImmediate(go);
  }

  #dependent(basis: CommitBasis | undefined): boolean {
    return basis !== undefined && (this.#failed.get(basis.emitter) ?? -1) >= basis.epoch;
  }

  #failedOn(w: Waiter): void {
    if (w.basis) this.#failed.set(w.basis.emitter, Math.max(w.basis.epoch, this.#failed.get(w.basis.emitter) ?? -1));
  }

  // Parts queued while an earlier part of their emitter failed: out of the group, before it is written.
  #dropDependent(): void {
    if (this.#failed.size === 0 || !this.#waiters.some((w) => this.#dependent(w.basis))) return;
    const keep: Waiter[] = [];
    for (const w of this.#waiters) {
      if (this.#dependent(w.basis)) w.reject(new DependentPartError(w.basis!.emitter));
      else keep.push(w);
    }
    this.#waiters = keep;
    this.#batch = emptyBatch();
    for (const w of keep) merge(this.#batch, w.part);
  }

  #flush(): void {
    this.#dropDependent();
    if (this.#running || this.#waiters.length === 0) return;
    if (this.#usage.length > 0 && Date.now() - this.#usageWrittenAt >= USAGE_EVERY_MS) {
      this.#batch.usage = this.#usage;
      this.#usage = [];
      this.#usageWrittenAt = Date.now();
    }
    const batch = compact(this.#batch);
    const waiters = this.#waiters;
    this.#batch = emptyBatch();
    this.#waiters = [];
    this.#urgent = false;
    const startedAt = performance.now();
    const running = this.#store.events.commit(batch).then(
      () => {
        this.#metrics.commit(waiters.length, (performance.now() - startedAt) / 1000);
        if (batch.inboxDone.length > 0) this.#tellInboxDone(batch.inboxDone.length);
        waiters.forEach((w) => w.resolve());
      },
      (e: unknown) => {
        if (waiters.length > 1 && !isStorageFault(e)) return this.#onePerTransaction(waiters, batch.usage);
        // counted runs did happen: their usage is written with a later commit
        this.#usage.push(...batch.usage);
        for (const w of waiters) {
          this.#failedOn(w);
          w.reject(e);
        }
      },
    );
    this.#running = running;
    void running.finally(() => {
      this.#running = null;
      this.#lastCommitAt = performance.now();
      if (this.#waiters.length > 0) {
        // big backlogs are split so one transaction never grows without bound
        if (this.#batch.events.length > MAX_EVENTS_PER_TX) this.#flush();
        else this.#schedule();
      }
    });
  }

  async #onePerTransaction(waiters: Waiter[], usage: CommitBatch["usage"]): Promise<void> {
    // the group's usage goes with the first part that commits (it counts runs that happened)
    let pendingUsage = usage;
    for (const w of waiters) {
      // a later part of an emitter whose part just failed was computed on top of it (#failed)
      if (this.#dependent(w.basis)) {
        w.reject(new DependentPartError(w.basis!.emitter));
        continue;
      }
      const b = emptyBatch();
      merge(b, w.part);
      b.usage = pendingUsage;
      try {
        await this.#store.events.commit(compact(b));
        pendingUsage = [];
        if (b.inboxDone.length > 0) this.#tellInboxDone(b.inboxDone.length);
        w.resolve();
      } catch (e) {
        this.#failedOn(w);
        w.reject(e);
      }
    }
    if (pendingUsage.length > 0) this.#usage.push(...pendingUsage);
  }

  #tellInboxDone(n: number): void {
    try {
      this.onInboxDone(n);
    } catch {
      // a listener's failure is its own: the commit stands
    }
  }
}



function merge(b: CommitBatch, part: CommitPart): void {
  if (part.events) for (const e of part.events) b.events.push(e);
  if (part.states) b.states.push(...part.states);
  if (part.inboxDone) b.inboxDone.push(...part.inboxDone);
  if (part.timers) b.timers.push(...part.timers);
  if (part.trims) b.trims.push(...part.trims);
  if (part.deliveries) for (const d of part.deliveries) b.deliveries.push(d);
  if (part.deliveriesDone) b.deliveriesDone.push(...part.deliveriesDone);
  // in order: a run written twice in a batch ends as its last write (the store keeps the last)
  if (part.runs) for (const r of part.runs) b.runs.push(r);
  if (part.runSteps) for (const s of part.runSteps) b.runSteps.push(s);
  if (part.runTrims) b.runTrims.push(...part.runTrims);
  if (part.dataStores) b.dataStores.push(...part.dataStores);
  if (part.sends) b.sends.push(...part.sends);
  if (part.fence) {
    if (b.fence) b.fence.leases.push(...part.fence.leases);
    else b.fence = { node: part.fence.node, leases: [...part.fence.leases] };
  }
}

// Several results of one emitter in a batch: only its last state and timer matter, usage adds up,
// and each stream and each workflow's runs are trimmed once.
function compact(b: CommitBatch): CommitBatch {
  const states = new Map(b.states.map((s) => [s.emitter_id, s]));
  const timers = new Map(b.timers.map((t) => [t.source_id, t]));
  const usage = new Map<string, CommitBatch["usage"][number]>();
  for (const u of b.usage) {
    const key = `${u.user_id}\u0000${u.day}`;
    const seen = usage.get(key);
    if (seen) {
      seen.invocations += u.invocations;
      seen.compute_ms += u.compute_ms;
    } else {
      usage.set(key, { ...u });
    }
  }
  const trims = new Map(b.trims.map((t) => [`${t.emitter_id}\u0000${t.event_name}`, t]));
  const runTrims = new Map(b.runTrims.map((t) => [t.workflow_id, t]));
  return {
    events: b.events,
    states: [...states.values()],
    inboxDone: b.inboxDone,
    timers: [...timers.values()],
    usage: [...usage.values()],
    trims: [...trims.values()],
    deliveries: b.deliveries,
    deliveriesDone: b.deliveriesDone,
    runs: b.runs,
    runSteps: b.runSteps,
    runTrims: [...runTrims.values()],
    dataStores: b.dataStores,
    sends: b.sends,
    ...(b.fence ? { fence: { node: b.fence.node, leases: uniqueLeases(b.fence.leases) } } : {}),
  };
}

function uniqueLeases(leases: Array<[number, number]>): Array<[number, number]> {
  const seen = new Map(leases.map(([p, e]) => [`${p}:${e}`, [p, e] as [number, number]]));
  return [...seen.values()];
}
