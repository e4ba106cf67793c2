import type { InboxRow, Store } from "../../store/port.ts";
import type { Capacity } from "./capacity.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { Target } from "../runtime/target.ts";
import type { Targets } from "../runtime/targets.ts";
import { countFailure, describeFailure, isFenced } from "../runtime/poison.ts";

// Accepted runs (inbox rows) reach the runners through here, so the work held in memory stays
// bounded: at most PER_SOURCE runs in flight per source (PER_WORKFLOW per workflow) and what the shared Capacity allows in
// all. Everything else waits in the inbox table, where it is durable already, and is read back
// oldest first as runs finish. A run whose commit failed (the store was unavailable) is still in
// the inbox: its source pauses, then reads it back, so stuck work resumes by itself.
//
// Order: a source's rows run in seq order. While a source has rows waiting in the store, new
// ones are not run directly (they would overtake); they are read back after the older ones.

const PER_SOURCE = 256;
/**
 * A workflow's runs execute side by side (each its own order key at the runner), and most wait on
 * an API: 1,000 of them awaiting a call at once measured ~0.5 MB of runner memory each. A
 * source's rows run one at a time, so more of them in flight would only be held in memory.
 */
const PER_WORKFLOW = 1024;
const inFlightLimit = (sourceId: string) => (sourceId.startsWith("p_") ? PER_WORKFLOW : PER_SOURCE);
const RETRY_AFTER_FAILURE_MS = 2000;

interface Lane {
  /** seqs running now, with the bytes they took from the capacity */
  inFlight: Map<number, number>;
  /** rows may be waiting in the store that are neither running nor done */
  backlog: boolean;
  /** a new row arrived while a read-back was running: read again before trusting "no backlog" */
  dirty: boolean;
  reading: boolean;
  paused?: NodeJS.Timeout;
  /** room freed in the shared capacity: whether the lane goes for it */
  wake: () => boolean;
  /** runs in flight at most (inFlightLimit) */
  limit: number;
  /** commit failures per seq that were not the store's fault (poison detection) */
  failures: Map<number, number>;
  /** runs that finished while a read-back was under way: the read may still have seen their rows */
  doneWhileReading: Set<number>;
  /**
   * The highest seq handed to a run: rows up to it are running or done, so a read-back starts
   * after it instead of reading the running rows again (with capacity full, a lane reads back
   * each time one of its runs ends: a read of 256 rows to start one made SQLite 40% of the main
   * thread under overload). 0: read from the oldest row (after a failure, or when another node
   * wrote rows, whose seqs may be below it).
   */
  cursor: number;
  /**
   * Counts the times the cursor went back to 0 (a failure, a wake-up, a resume): a read-back that
   * was under way meanwhile must not move it forward again past the rows it must re-read.
   */
  rewinds: number;
}

export interface InboxPumpDeps {
  store: Store;
  targets: Targets;
  invocations: Invocations;
  capacity: Capacity;
  log: (err: unknown, what: string) => void;
  /** whether this node runs the source's accepted runs (several nodes: its partition's owner) */
  owns?: (sourceId: string) => boolean;
  /** tells the source's owner, on another node, that rows wait for it */
  announce?: (sourceId: string) => void;
}

export class InboxPump {
  readonly #d: InboxPumpDeps;
  readonly #lanes = new Map<string, Lane>();
  #closed = false;

  constructor(deps: InboxPumpDeps) {
    this.#d = deps;
  }

  /** Rows in flight or known to wait, across sources (a metric, and for tests). */
  get inFlight(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) n += lane.inFlight.size;
    return n;
  }

  /** A row was just written to the inbox: run it now if there is room, else later from the store. */
  accepted(t: Target, seq: number, eventJson: string | undefined): void {
    if (this.#closed) return;
    if (!this.#owns(t.source.id)) {
      this.#d.announce?.(t.source.id);
      return;
    }
    const lane = this.#lane(t.source.id);
    const bytes = eventJson?.length ?? 0;
    if (!lane.backlog && !lane.paused && lane.inFlight.size < lane.limit && this.#d.capacity.tryTake(bytes, true)) {
      lane.cursor = Math.max(lane.cursor, seq);
      this.#run(t, lane, seq, eventJson, bytes);
      return;
    }
    lane.backlog = true;
    lane.dirty = true;
    this.#pump(t.source.id);
  }

  /** At start, and when the store comes back after a fault: read every source's rows back. */
  async resume(): Promise<void> {
    for (const id of await this.#d.store.events.inboxSources()) {
      if (!this.#owns(id)) continue;
      const lane = this.#lane(id);
      lane.backlog = true;
      lane.dirty = true;
      rewind(lane);
      if (lane.paused) {
        clearTimeout(lane.paused);
        lane.paused = undefined;
      }
      this.#pump(id);
    }
  }

  /** Rows of the source wait in the inbox (another node accepted them): read them. */
  wake(sourceId: string): void {
    if (this.#closed || !this.#owns(sourceId)) return;
    const lane = this.#lane(sourceId);
    lane.backlog = true;
    lane.dirty = true;
    rewind(lane);
    this.#pump(sourceId);
  }

  /** Stops reading the rows of the sources `which` picks (another node runs them now). */
  dropWhere(which: (sourceId: string) => boolean): void {
    for (const id of [...this.#lanes.keys()]) if (which(id)) this.drop(id);
  }

  /** The source was deleted (its rows went with it), or another node runs its rows now. */
  drop(sourceId: string): void {
    const lane = this.#lanes.get(sourceId);
    if (!lane) return;
    // a pause left set would hold the lane (and every later row of the source) after this
    if (lane.paused) clearTimeout(lane.paused);
    lane.paused = undefined;
    this.#d.capacity.forget(lane.wake);
    lane.backlog = false;
    this.#forgetIfIdle(sourceId, lane);
  }

  close(): void {
    this.#closed = true;
    for (const lane of this.#lanes.values()) {
      if (lane.paused) clearTimeout(lane.paused);
      this.#d.capacity.forget(lane.wake);
    }
  }

  #owns(sourceId: string): boolean {
    return this.#d.owns ? this.#d.owns(sourceId) : true;
  }

  #lane(sourceId: string): Lane {
    let lane = this.#lanes.get(sourceId);
    if (!lane) {
      const created: Lane = {
        inFlight: new Map(),
        backlog: false,
        dirty: false,
        reading: false,
        wake: () => this.#roomFreed(sourceId),
        limit: inFlightLimit(sourceId),
        failures: new Map(),
        doneWhileReading: new Set(),
        cursor: 0,
        rewinds: 0,
      };
      this.#lanes.set(sourceId, (lane = created));
    }
    return lane;
  }

  #run(t: Target, lane: Lane, seq: number, eventJson: string | undefined, bytes: number): void {
    lane.inFlight.set(seq, bytes);
    this.#d.invocations
      .invoke(t, "run", eventJson, { inboxSeq: seq })
      .then(
        () => {
          lane.failures.delete(seq);
          return false;
        },
        async (e: unknown) => {
          if (!countFailure(lane.failures, seq, e)) {
            // The row is still in the inbox: it runs again shortly (once the store takes writes).
            if (!isFenced(e)) this.#d.log(e, "committing an accepted run failed; it runs again shortly");
            return true;
          }
          lane.failures.delete(seq);
          this.#d.log(e, `an accepted run of ${t.source.id} keeps failing to commit; it is set aside on $errors`);
          return this.#d.invocations.setAside(t, eventJson, { inboxSeq: seq }, describeFailure(e)).then(
            () => false,
            (e2: unknown) => {
              this.#d.log(e2, "setting a run aside failed; it runs again shortly");
              return true;
            },
          );
        },
      )
      .then((failed) => {
        lane.inFlight.delete(seq);
        if (lane.reading && !failed) lane.doneWhileReading.add(seq);
        this.#d.capacity.give(bytes, true);
        if (failed) this.#pause(t.source.id, lane);
        else if (lane.backlog) this.#pump(t.source.id);
        else this.#forgetIfIdle(t.source.id, lane);
      });
  }

  #pause(sourceId: string, lane: Lane): void {
    lane.backlog = true;
    lane.dirty = true;
    // the failed row is still in the inbox, below the cursor
    rewind(lane);
    if (lane.paused || this.#closed) return;
    lane.paused = setTimeout(() => {
      lane.paused = undefined;
      this.#pump(sourceId);
    }, RETRY_AFTER_FAILURE_MS);
  }

  #forgetIfIdle(sourceId: string, lane: Lane): void {
    if (lane.inFlight.size === 0 && !lane.backlog && !lane.paused && !lane.reading && this.#lanes.get(sourceId) === lane) {
      this.#lanes.delete(sourceId);
    }
  }

  // room freed in the shared capacity: whether the lane goes for it
  #roomFreed(sourceId: string): boolean {
    const lane = this.#lanes.get(sourceId);
    // not now: its own runs finishing will call again, or a pause or nothing to read
    if (!lane || this.#closed || !lane.backlog || lane.paused || (!lane.reading && lane.inFlight.size > lane.limit / 2)) return false;
    this.#pump(sourceId);
    return true;
  }

  #pump(sourceId: string): void {
    const lane = this.#lanes.get(sourceId);
    if (!lane || this.#closed || !lane.backlog || lane.paused) return;
    // A wake-up while the lane reads (room freed, its runs finished) must not be lost: the read
    // may have found no room, and nothing else would call again. It reads once more after this one.
    if (lane.reading) {
      lane.dirty = true;
      return;
    }
    // Read back once half the source's runs are done, so each read brings many new rows
    // instead of re-reading the ones still running.
    if (lane.inFlight.size > lane.limit / 2) return;
    const room = lane.limit - lane.inFlight.size;
    lane.reading = true;
    lane.dirty = false;
    lane.doneWhileReading.clear();
    let waits = false;
    this.#readBack(sourceId, lane, room)
      .then(
        (r) => (waits = r === "waits"),
        (e: unknown) => {
          this.#d.log(e, "reading accepted runs back from the inbox failed");
          this.#pause(sourceId, lane);
        },
      )
      .finally(() => {
        lane.reading = false;
        // Woken for freed room, the lane may have taken less than there is (or nothing: its rows
        // were gone, it was disabled, the read failed): the room goes to the next waiter, or it
        // would sit unused until some other run ends. Not when it waits for room itself.
        if (!waits) this.#d.capacity.passOn();
        if (lane.backlog && lane.dirty) this.#pump(sourceId);
        else this.#forgetIfIdle(sourceId, lane);
      });
  }

  /** "waits": it stopped for lack of room, and waits for some */
  async #readBack(sourceId: string, lane: Lane, room: number): Promise<"waits" | undefined> {
    // From the oldest row, the running ones come back too; after the cursor, only new ones, and
    // no more than the shared capacity could start now.
    const after = lane.cursor;
    const rewinds = lane.rewinds;
    const want = after === 0 ? room + lane.inFlight.size : Math.min(room, Math.max(1, this.#d.capacity.freeRuns(true)));
    if (!this.#owns(sourceId)) {
      lane.backlog = false;
      return;
    }
    const rows = await this.#d.store.events.inboxFor(sourceId, want, after);
    const t = await this.#d.targets.get(sourceId);
    if (!t || !t.source.active) {
      // Deleted (its rows go with it) or disabled: the rows wait until it is enabled (which
      // wakes the lane: SourceRuntime.changed) or the service starts again.
      lane.backlog = false;
      return;
    }
    // Stopped, dropped or paused meanwhile: nothing more starts now (a pause retries later).
    if (this.#closed || lane.paused || this.#lanes.get(sourceId) !== lane) return;
    for (const row of rows) {
      if (lane.inFlight.has(row.seq) || lane.doneWhileReading.has(row.seq)) continue;
      const eventJson = eventOf(row);
      const bytes = eventJson?.length ?? 0;
      if (!this.#d.capacity.tryTake(bytes, true)) {
        this.#d.capacity.whenFree(lane.wake, true);
        return "waits";
      }
      // A run that failed while this read was under way sent the cursor back to its row: the
      // cursor stays there, so the next read finds that row again.
      if (lane.rewinds === rewinds) lane.cursor = Math.max(lane.cursor, row.seq);
      this.#run(t, lane, row.seq, eventJson, bytes);
    }
    // Everything the store had fits in memory now; new rows may be run directly again.
    if (rows.length < want && !lane.dirty) lane.backlog = false;
    return undefined;
  }
}

/** the next read-back starts from the oldest row */
function rewind(lane: Lane): void {
  lane.cursor = 0;
  lane.rewinds++;
}

/** "" is a run with no event (POST /sources/{id}/run without one). */
export function eventOf(row: InboxRow): string | undefined {
  return row.event === "" ? undefined : row.event;
}
