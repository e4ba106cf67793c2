import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Capacity } from "./capacity.ts";

// Past capacity the HTTP edge gets the event loop first. Accepting a request and running what
// was accepted share one event loop; under an overload both went on at full speed, the loop fell
// behind, and every request (even the cheap 429 of a full backlog) waited seconds for its turn.
// The inbox can wait (what is in it is durable); a caller can't. So while the backlog is at its
// bound (requests were refused in the last seconds, backlog.ts), the event loop's delay is sampled
// every SAMPLE_MS, and the number of accepted runs held at once (Capacity.inboxLimit) is halved
// while its p99 is over `lagMs` and grown by a quarter while it is under half of that: runs keep
// going, fewer at a time, and the loop stays quick enough for the edge to refuse what it can't
// take at the speed of a bare server, instead of making every caller wait.
//
// Only past capacity: below the bound, a busy loop is what a closed-loop client's load looks like,
// and taking the loop from the runs would only grow the backlog until it refuses that client.
//
// Deliveries are left alone: they are not what a caller waits for, and throttling them on a
// loop that only they keep busy would just make them slower. Neither are timer ticks, which
// don't queue (a late tick coalesces, timers.ts).

const SAMPLE_MS = 100;
/** the delay monitor's timer: the delays that matter are tens of ms, finer costs more to sample */
const RESOLUTION_MS = 10;
/** accepted runs held at once, however far behind the loop is: the inbox always drains */
export const MIN_INBOX_RUNS = 8;

/** the next limit on accepted runs held at once, from the loop's delay (p99, ms) over the last sample */
export function nextInboxLimit(limit: number, lagP99Ms: number, lagMs: number, max: number): number {
  if (lagP99Ms > lagMs) return Math.max(MIN_INBOX_RUNS, Math.floor(Math.min(limit, max) / 2));
  if (lagP99Ms < lagMs / 2) return Math.min(max, Math.ceil(limit * 1.25));
  return Math.min(limit, max);
}

export class EdgeFirst {
  readonly #capacity: Capacity;
  readonly #lagMs: number;
  readonly #refusing: () => boolean;
  #histogram: ReturnType<typeof monitorEventLoopDelay> | undefined;
  #timer: NodeJS.Timeout | undefined;

  /**
   * `lagMs`: the event loop delay (p99, ms) past which accepted runs are throttled, 0 = never;
   * `refusing`: whether the service is refusing work now (only then are they throttled)
   */
  constructor(capacity: Capacity, lagMs: number, refusing: () => boolean) {
    this.#capacity = capacity;
    this.#lagMs = lagMs;
    this.#refusing = refusing;
  }

  start(): void {
    if (this.#lagMs <= 0 || this.#timer) return;
    const h = (this.#histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS }));
    h.enable();
    const max = this.#capacity.maxRuns;
    this.#capacity.inboxLimit = max;
    this.#timer = setInterval(() => {
      // what the histogram records includes its own timer's interval
      const lag = h.count > 0 ? Math.max(0, h.percentile(99) / 1e6 - RESOLUTION_MS) : 0;
      h.reset();
      // not refusing: the limit grows back as if the loop were quick
      this.#capacity.inboxLimit = nextInboxLimit(this.#capacity.inboxLimit, this.#refusing() ? lag : 0, this.#lagMs, max);
    }, SAMPLE_MS);
    this.#timer.unref();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#histogram?.disable();
    this.#capacity.inboxLimit = Infinity;
  }
}
