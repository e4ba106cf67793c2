// Which entries into an isolate run on the runner's own thread. An async entry (ref.apply) hands
// the call to isolated-vm's thread pool and its result back: two thread hops, which profiles
// showed to be a third of a runner's CPU and most of a short run's latency. A synchronous entry
// (ref.applySync) locks the isolate on the runner's thread: no hop, but nothing else on this
// runner moves until it returns, for as long as the invocation's timeout allows.
//
// So a component's code earns synchronous entries by being quick: after a streak of quick async
// entries its code hash is promoted (per runner process); a synchronous entry that turns out slow
// demotes it again and doubles the streak it needs next time, and one that stalls the runner
// demotes it for good. After a few such stalls a runner stops promoting anything, which bounds
// what a component that behaves until it is promoted can cost its neighbours.

/** an async entry at most this long in its isolate (host calls included) counts towards promotion */
const QUICK_MS = 2;
/** quick async entries in a row that promote a code hash (doubled by each demotion) */
const PROMOTE_AFTER = 16;
/**
 * synchronous entries longer than this on average demote their code hash: an average (a moving
 * one, over about the last 5), as one entry that took long may be a descheduled thread or a GC
 */
const SLOW_MS = 5;
/** a synchronous entry longer than this demotes its code hash for good */
const STALL_MS = 100;
/** stalls after which this runner makes no entry synchronous again */
const MAX_STALLS = 3;
/**
 * a new context of a code is made on the runner's thread (load/isolate-calls.ts) when its entries
 * are and its cold starts take at most this long: the runtime and a small component take about
 * 1 ms; a big npm bundle's top level can take tens
 */
const QUICK_START_MS = 10;

interface Mode {
  streak: number;
  /** moving average of its synchronous entries' times, ms */
  syncMs: number;
  demotions: number;
  sync: boolean;
  banned: boolean;
  /** its cold starts' time, ms (Infinity before the first): see started() */
  startMs: number;
}

export class EntryModes {
  readonly #modes = new Map<string, Mode>();
  #stalls = 0;
  #enabled = true;
  /** tests: every code synchronous from its first entry until it times out, whatever its times */
  #always = false;

  /** false: every entry async (TRIBUTARY_SYNC_ENTRIES=off); "always": see #always */
  set(mode: false | "always"): void {
    this.#enabled = mode !== false;
    this.#always = mode === "always";
    this.#modes.clear();
  }

  /** whether the next entry into this code's isolate runs on the runner's thread */
  sync(codeHash: string): boolean {
    if (!this.#enabled || this.#stalls >= MAX_STALLS) return false;
    const m = this.#modes.get(codeHash);
    return m ? m.sync : this.#always;
  }

  /** whether the next context for this code is made on the runner's thread */
  syncStart(codeHash: string): boolean {
    if (!this.sync(codeHash)) return false;
    return this.#always || (this.#modes.get(codeHash)?.startMs ?? Infinity) <= QUICK_START_MS;
  }

  /**
   * a context of this code was made (or failed to be) in `ms`: a synchronous start's own time,
   * or a pooled one's time in its isolate. The latter counts everything the isolate ran
   * meanwhile (its other contexts' starts and runs: an isolate runs one thing at a time), so it
   * can only show that a code starts quickly, never that it doesn't: cold starts arriving 25 at
   * once each measured the whole burst, and the code never left the pool again.
   */
  started(codeHash: string, ms: number, wasSync: boolean): void {
    if (!this.#enabled || this.#always) return;
    const m = this.#modes.get(codeHash) ?? this.#add(codeHash);
    if (!wasSync) {
      m.startMs = Math.min(m.startMs, ms);
      return;
    }
    // an average, as for entries: one start that took long may be a collection or a descheduled thread
    m.startMs = Number.isFinite(m.startMs) ? m.startMs + (ms - m.startMs) / 5 : ms;
    if (ms > STALL_MS) this.stalled(codeHash, true);
  }

  /** an entry of this code took `ms` (its time in the isolate) and ended without a timeout or memory failure */
  took(codeHash: string, ms: number, wasSync: boolean): void {
    if (!this.#enabled || this.#always) return;
    const m = this.#modes.get(codeHash) ?? this.#add(codeHash);
    if (m.banned) return;
    if (wasSync) {
      m.syncMs += (ms - m.syncMs) / 5;
      if (ms > STALL_MS) this.stalled(codeHash, true);
      else if (m.syncMs > SLOW_MS) this.#demote(m);
      return;
    }
    if (ms > QUICK_MS) {
      m.streak = 0;
      return;
    }
    if (++m.streak >= PROMOTE_AFTER << m.demotions) {
      m.sync = true;
      m.syncMs = 0;
    }
  }

  /** an entry of this code timed out, ran out of memory or stalled the runner: async for good */
  stalled(codeHash: string, wasSync: boolean): void {
    const m = this.#modes.get(codeHash) ?? this.#add(codeHash);
    // "always" (tests) keeps going whatever stalls, so its suites run every entry synchronously
    if (wasSync && !this.#always) this.#stalls++;
    m.banned = true;
    m.sync = false;
  }

  #demote(m: Mode): void {
    m.sync = false;
    m.streak = 0;
    m.demotions = Math.min(m.demotions + 1, 10);
  }

  #add(codeHash: string): Mode {
    const m: Mode = { streak: 0, syncMs: 0, demotions: 0, sync: false, banned: false, startMs: Infinity };
    this.#modes.set(codeHash, m);
    return m;
  }
}
