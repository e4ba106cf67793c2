import { performance } from "node:perf_hooks";
import type { Store } from "../../store/port.ts";
import { AppError, stackless } from "../../lib/errors.ts";
import { HeldQueue } from "./held-queue.ts";

// The brake on accepted work: a bound on runs waiting in the inbox (TRIBUTARY_MAX_BACKLOG). Past
// it, a request is held (its answer waits) until a run finishes and makes room, for up to
// TRIBUTARY_OVERLOAD_HOLD_MS; only past that does it get 429 with Retry-After. A closed-loop
// client a few times faster than the runs then sees its answers slow down to the runs' pace
// instead of a storm of 429s (webhook senders, Stripe's or GitHub's, count a 429 as a failed
// delivery). Held requests are let in one connection at a time in turn, so one connection
// pipelining many can't starve the others. What was accepted still runs; the bound only stops
// the queue from growing without end.
//
// The count is read from the store (it spans every node) at most twice a second; what this node
// accepted since is added and what its runs finished since is taken off, so the check itself
// costs nothing and room shows the moment a run here ends. Rows of disabled emitters are not
// counted (store/queries/events.ts backlogCount): they can't drain until their owner enables them,
// and one user's disabled source must not keep every endpoint refusing.
// Times are monotonic: a wall clock stepped back must not freeze the count.

const REFRESH_MS = 500;
/** how long after its last refusal the service still counts as past capacity (`refusing`) */
const REFUSING_FOR_MS = 5000;
/** bodies of held requests kept in memory at most; past it new ones are refused at once */
const MAX_HELD_BYTES = 64 * 1024 * 1024;
/** held requests at most, whatever the pace: each is an open request and its body */
const MAX_HELD = 50_000;
/** held requests at least, however slow the pace measured so far */
const MIN_HELD = 256;

export interface BacklogOptions {
  /** inbox rows waiting past which new work waits (then is refused); 0 = no bound */
  max: number;
  /** how long a request may wait for room before it is refused; 0 = refused at once */
  holdMs?: number;
}

export class Backlog {
  readonly #store: Store;
  readonly #max: number;
  readonly #holdMs: number;
  #counted = 0;
  #acceptedSince = 0;
  #doneSince = 0;
  #countedAt = -Infinity;
  #counting = false;
  #refusedAt = -Infinity;
  readonly #held = new HeldQueue();
  #poll: NodeJS.Timeout | undefined;
  /** accepted runs finished here per second, over the last second or so: how many may wait */
  #pace = 0;
  #paceFrom = performance.now();
  #finished = 0;
  #closed = false;
  /** what a refusal says */
  readonly refusal: string;

  constructor(store: Store, opts: BacklogOptions) {
    this.#store = store;
    this.#max = opts.max;
    this.#holdMs = opts.holdMs ?? 0;
    this.refusal = `the service has ${opts.max.toLocaleString("en-US")} or more accepted runs waiting: try again shortly`;
  }

  /**
   * Counts one more accepted run. Returns undefined when there is room now; else a promise that
   * resolves once there is (the run counted then) or rejects with 429 overloaded once the hold
   * bound passed. `from`: the request's connection (requests are let in one connection at a time
   * in turn); `bytes`: what it holds in memory while it waits.
   */
  admit(from?: object, bytes = 0): Promise<void> | undefined {
    if (this.#closed) throw shuttingDown();
    if (this.#max <= 0) return undefined;
    // A count older than REFRESH_MS may be from before the backlog drained (nothing asked
    // meanwhile), so the request that finds it that old is accepted and a fresh count is taken;
    // those arriving while it is taken are judged by the old one.
    const stale = !this.#counting && performance.now() - this.#countedAt >= REFRESH_MS;
    if (stale) this.#refresh();
    // those already waiting go first
    if (this.#held.size === 0 && (stale || this.#room() > 0)) {
      this.#acceptedSince++;
      return undefined;
    }
    if (!this.#mayWait(bytes)) throw this.#refuse();
    const waiting = this.#held.add(from ?? this, bytes, this.#holdMs, () => {
      if (this.#held.size === 0) this.#stopPolling();
      return this.#refuse();
    });
    this.#pollWhileHeld();
    return waiting;
  }

  /** `n` accepted runs finished here (their inbox rows are done): room for as many */
  done(n = 1): void {
    if (this.#max <= 0) return;
    this.#doneSince += n;
    this.#finished += n;
    this.#letWaitersIn();
  }

  /** whether work was refused in the last few seconds: the service is past its capacity */
  get refusing(): boolean {
    return performance.now() - this.#refusedAt < REFUSING_FOR_MS;
  }

  /** requests waiting for room now */
  get holding(): number {
    return this.#held.size;
  }

  /**
   * Whether admit() would refuse now, without counting anything: for refusing before a request is
   * even routed (http/early-refusal.ts), which costs far less than reading it first. Yes only when
   * no more may wait (or none may: no hold); a count old enough to be refreshed says no.
   */
  get full(): boolean {
    if (this.#max <= 0 || performance.now() - this.#countedAt >= REFRESH_MS) return false;
    if (this.#held.size === 0 && this.#room() > 0) return false;
    if (this.#mayWait(0)) return false;
    // asked only to refuse a request, so a yes is a refusal
    this.#refusedAt = performance.now();
    return true;
  }

  /** the run counted by admit() was not accepted after all (its write failed) */
  giveBack(): void {
    if (this.#max <= 0) return;
    this.#acceptedSince = Math.max(0, this.#acceptedSince - 1);
    this.#letWaitersIn();
  }

  /** refuses every waiting request, and every one after (the service stops) */
  close(): void {
    this.#closed = true;
    this.#stopPolling();
    this.#held.refuseAll(shuttingDown);
  }

  #room(): number {
    return this.#max - Math.max(0, this.#counted + this.#acceptedSince - this.#doneSince);
  }

  // As many as would be let in within the hold bound at the pace runs finish here (room made by
  // other nodes' runs comes on top): one more would only wait out the bound and be refused then,
  // holding its connection and body for nothing. Measured over the last second or so, so a pace
  // that stopped reads 0 (MIN_HELD may still wait).
  /** whether one more request, holding `bytes`, may wait for room */
  #mayWait(bytes: number): boolean {
    return this.#holdMs > 0 && this.#held.size < this.#mayHold() && this.#held.bytes + bytes <= MAX_HELD_BYTES;
  }

  #mayHold(): number {
    const now = performance.now();
    if (now - this.#paceFrom >= 1000) {
      this.#pace = (this.#finished * 1000) / (now - this.#paceFrom);
      this.#finished = 0;
      this.#paceFrom = now;
    }
    return Math.min(MAX_HELD, Math.max(MIN_HELD, Math.ceil((this.#pace * this.#holdMs) / 1000)));
  }

  #stopPolling(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  #refuse(): Error {
    this.#refusedAt = performance.now();
    return stackless("overloaded", this.refusal, 1);
  }

  #letWaitersIn(): void {
    while (this.#held.size > 0 && this.#room() > 0) {
      this.#acceptedSince++;
      this.#held.letNextIn();
    }
    if (this.#held.size === 0) this.#stopPolling();
  }

  // Room made by other nodes' runs shows only in the store's count: read it while requests wait.
  #pollWhileHeld(): void {
    if (this.#poll) return;
    this.#poll = setInterval(() => {
      if (!this.#counting && performance.now() - this.#countedAt >= REFRESH_MS) this.#refresh();
    }, REFRESH_MS / 2);
    this.#poll.unref();
  }

  #refresh(): void {
    if (this.#counting) return;
    this.#counting = true;
    const startedAt = performance.now();
    const acceptedBefore = this.#acceptedSince;
    this.#store.events
      .backlogCount()
      .then(
        (n) => {
          this.#counted = n;
          // what was accepted or finished while counting may or may not be in the count: the
          // accepted are kept and the finished forgotten (erring high, by a few ms of runs)
          this.#acceptedSince = Math.max(0, this.#acceptedSince - acceptedBefore);
          this.#doneSince = 0;
          this.#countedAt = startedAt;
          this.#letWaitersIn();
        },
        () => {
          // the store is away: its own 503 answers the requests; try again next time
          this.#countedAt = startedAt;
        },
      )
      .finally(() => (this.#counting = false));
  }
}

function shuttingDown(): AppError {
  const e = new AppError("unavailable", "the service is shutting down: try again in a moment");
  e.retryAfterSeconds = 1;
  return e;
}
