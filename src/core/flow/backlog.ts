import { performance } from "node:perf_hooks";
import type { Store } from "../../store/port.ts";
import { stackless } from "../../lib/errors.ts";

// The brake on accepted work: past a bound on runs waiting in the inbox (TRIBUTARY_MAX_BACKLOG),
// HTTP endpoints and run-now answer 429 with Retry-After instead of accepting work the service
// would take minutes to get to. What was accepted still runs; the bound only stops the queue
// from growing without end. The count is read from the store (it spans every node) at most
// twice a second, and what this node accepted since is added, so the check itself costs nothing.
// Rows of disabled emitters are not counted (store/queries/events.ts backlogCount): they can't
// drain until their owner enables them, and one user's disabled source must not keep every
// endpoint refusing.
// Times are monotonic: a wall clock stepped back must not freeze the count.

const REFRESH_MS = 500;
/** how long after its last refusal the service still counts as past capacity (`refusing`) */
const REFUSING_FOR_MS = 5000;

export class Backlog {
  readonly #store: Store;
  readonly #max: number;
  #counted = 0;
  #acceptedSince = 0;
  #countedAt = -Infinity;
  #counting = false;
  #refusedAt = -Infinity;
  /** what a refusal says */
  readonly refusal: string;

  /** `max`: inbox rows waiting past which new work is refused; 0 = no bound */
  constructor(store: Store, max: number) {
    this.#store = store;
    this.#max = max;
    this.refusal = `the service has ${max.toLocaleString("en-US")} or more accepted runs waiting: try again shortly`;
  }

  /** counts one more accepted run, or throws 429 overloaded when `max` or more wait already */
  take(): void {
    if (this.#max <= 0) return;
    // A count older than REFRESH_MS may be from before the backlog drained (nothing asked
    // meanwhile), so the request that finds it that old is accepted and a fresh count is taken;
    // those arriving while it is taken are judged by the old one. Under load that lets one more
    // request in per count.
    const stale = !this.#counting && performance.now() - this.#countedAt >= REFRESH_MS;
    if (stale) this.#refresh();
    if (stale || this.#counted + this.#acceptedSince < this.#max) {
      this.#acceptedSince++;
      return;
    }
    this.#refusedAt = performance.now();
    throw stackless("overloaded", this.refusal, 1);
  }

  /** whether work was refused in the last few seconds: the service is past its capacity */
  get refusing(): boolean {
    return performance.now() - this.#refusedAt < REFUSING_FOR_MS;
  }

  /**
   * Whether take() would refuse now, without counting anything: for refusing before a request is
   * even routed. A count old enough to be refreshed says no, so that take() refreshes it.
   */
  get full(): boolean {
    if (this.#max <= 0 || performance.now() - this.#countedAt >= REFRESH_MS) return false;
    if (this.#counted + this.#acceptedSince < this.#max) return false;
    // asked only to refuse a request, so a yes is a refusal
    this.#refusedAt = performance.now();
    return true;
  }

  /** the run counted by take() was not accepted after all (its write failed) */
  giveBack(): void {
    if (this.#max > 0) this.#acceptedSince = Math.max(0, this.#acceptedSince - 1);
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
          // what was accepted while counting may or may not be in the count: kept (erring high)
          this.#acceptedSince = Math.max(0, this.#acceptedSince - acceptedBefore);
          this.#countedAt = startedAt;
        },
        () => {
          // the store is away: its own 503 answers the requests; try again next time
          this.#countedAt = startedAt;
        },
      )
      .finally(() => (this.#counting = false));
  }
}
