import { PARTITIONS, type RunRow, type Store } from "../../store/port.ts";
import { SoonestTimer } from "../../lib/soonest-timer.ts";
import type { Targets } from "../runtime/targets.ts";
import type { RunDriver } from "./run-driver.ts";

// Takes waiting runs up again when their time comes (docs/writing-workflows.md): delays, suspensions' timeouts
// and resumes, reruns, retries' backoffs, and runs a stopped node left running. The store is the
// schedule: one timer here for the soonest due time of the partitions this node holds, armed
// again after every scan and by every wait a commit here schedules; 100,000 suspended runs cost
// rows, not timers. A scan also runs at start, when partitions are gained, when the store
// recovers, when another node says a run of ours was resumed, and every SWEEP_MS in case a
// message was lost.

const BATCH = 512;
/** runs taken up at once: the rest stay due in the store, and are read when these end */
const MAX_ACTIVE = 512;
const SWEEP_MS = 5000;
/** the least time between two scans the timer starts: runs due together are read together */
const MIN_GAP_MS = 10;

export interface RunWakerDeps {
  store: Store;
  targets: Targets;
  driver: RunDriver;
  /** whether this node holds the partition */
  holds: (partition: number) => boolean;
  log: (err: unknown, what: string) => void;
}

export class RunWaker {
  readonly #d: RunWakerDeps;
  readonly #timer = new SoonestTimer(() => this.scan(false));
  #sweep: NodeJS.Timeout | undefined;
  #active = 0;
  #scanning = false;
  /** a scan was asked for while one ran (`orphans`: it must look for orphaned runs too) */
  #again: { orphans: boolean } | undefined;
  /** a scan found more due runs than it had room for: scan again when one ends (its `orphans`) */
  #full: { orphans: boolean } | undefined;
  #closed = false;
  #scannedAt = 0;

  constructor(deps: RunWakerDeps) {
    this.#d = deps;
  }

  start(): void {
    // orphans too: a run whose step couldn't commit (the store was down, then not noticed as
    // recovered) or one a scan had no room for is found within a sweep
    this.#sweep = setInterval(() => this.scan(true), SWEEP_MS);
    this.#sweep.unref();
    this.scan(true);
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#sweep);
    this.#timer.clear();
  }

  /** A run here waits until `dueAtMs`: scan then, unless a scan is armed sooner. */
  arm(dueAtMs: number): void {
    // runs coming due one after another (thousands a second) are taken up a few ms' worth at a
    // time, not one scan each
    dueAtMs = Math.max(dueAtMs, this.#scannedAt + MIN_GAP_MS);
    if (!this.#closed) this.#timer.arm(dueAtMs);
  }

  /** Reads the due runs now (`orphans`: and running runs no node drives: at start, on takeover). */
  scan(orphans: boolean): void {
    if (this.#closed) return;
    if (this.#scanning) {
      this.#again = { orphans: orphans || (this.#again?.orphans ?? false) };
      return;
    }
    this.#scanning = true;
    void this.#scan(orphans)
      .catch((e: unknown) => this.#d.log(e, "reading workflow runs that are due failed; trying again shortly"))
      .finally(() => {
        this.#scanning = false;
        const again = this.#again;
        this.#again = undefined;
        if (again) this.scan(again.orphans);
      });
  }

  async #scan(orphans: boolean): Promise<void> {
    this.#scannedAt = Date.now();
    const held = Array.from({ length: PARTITIONS }, (_, p) => p).filter((p) => this.#d.holds(p));
    if (held.length === 0) return;
    const store = this.#d.store.runs;
    const now = Date.now();
    if (orphans) {
      // the runs this node drives read as orphans too: page past them, until the room is full
      for (let after: string | undefined; ; ) {
        const page = await store.orphans(held, BATCH, after);
        for (const run of page) this.#take(run, true);
        if (page.length < BATCH || this.#active >= MAX_ACTIVE || this.#closed) break;
        after = page.at(-1)!.id;
      }
      // queued runs (settings.concurrency) start when a run of theirs ends; after a restart or a
      // takeover none has ended here yet
      for (const run of await store.queued({ partitions: held }, now, BATCH)) this.#take(run, true);
    }
    const due = await store.due(held, now, BATCH);
    for (const run of due) this.#take(run, orphans);
    // more were due than one read takes: read again when a run ends (as when there was no room)
    if (due.length === BATCH) this.#full = { orphans: orphans || (this.#full?.orphans ?? false) };
    // no room for more: the scan when room frees finds them, whatever their time
    if (this.#full) return;
    // the runs due now are taken; the timer is for the next one to come due
    const next = await store.nextDue(held, now);
    if (next !== undefined) this.arm(next);
  }

  #take(run: RunRow, orphans: boolean): void {
    if (this.#closed || this.#d.driver.inFlight(run.id)) return;
    if (this.#active >= MAX_ACTIVE) {
      this.#full = { orphans: orphans || (this.#full?.orphans ?? false) };
      return;
    }
    this.#active += 1;
    void this.#resume(run)
      .catch((e: unknown) => this.#d.log(e, `taking up workflow run ${run.id} failed; it is tried again shortly`))
      .finally(() => {
        this.#active -= 1;
        // a scan that found no room asked for another; it runs once half the room is free (one
        // scan per run that ends would read the store far more often than runs end)
        const full = this.#full;
        if (full && this.#active <= MAX_ACTIVE / 2) {
          this.#full = undefined;
          this.scan(full.orphans);
        }
      });
  }

  async #resume(run: RunRow): Promise<void> {
    const t = await this.#d.targets.get(run.workflow_id);
    // the workflow is gone: its runs went with it (a row read just before the delete)
    if (!t?.workflow) return;
    await this.#d.driver.resume(t, run);
  }
}
