// Which warm context of a source an invocation runs in. A source's invocations come one at a
// time (one order key: sandbox/invoke.ts), so they always take its first context and its module
// state carries from run to run. A workflow's runs come side by side (each run is its own order
// key): each takes a free context of the workflow's. A new one is made only while a busy one
// waits on the host (a fetch, a timer): then the isolate's thread is free for another run. Runs
// that only compute take turns in the contexts there are, as new contexts would not run them any
// sooner (one thread) and cost memory and a cold start each. At most MAX_PER_SOURCE; past that a
// run waits for one to come free, in arrival order. Contexts of one owner's code share isolates
// (isolate-pool.ts): a further context costs about 0.25 MB of heap, ~0.5 MB of RSS with a run in it.

/** contexts of one source running at once: the runs of one workflow a runner executes side by side */
export const MAX_PER_SOURCE = 1024;
/** how often the runs waiting for a context of a source look again whether a new one may be made */
const RECHECK_MS = 2;

interface Waiter {
  /** hands the run its context, or undefined when it waited too long */
  take: (slot: string | undefined) => void;
  /** when it gives up (performance.now() ms) */
  until: number;
}

interface Waiting {
  /** the runs waiting, oldest first: each is handed its context */
  queue: Waiter[];
  /** one recheck per source, however many wait */
  timer: NodeJS.Timeout | undefined;
}

export class ContextSlots {
  readonly #claimed = new Set<string>();
  /** contexts made per source (slots 0..n-1) */
  readonly #made = new Map<string, number>();
  readonly #waiting = new Map<string, Waiting>();
  /** whether the invocation holding `slot` waits on the host */
  readonly #awaitingHost: (slot: string) => boolean;

  constructor(awaitingHost: (slot: string) => boolean) {
    this.#awaitingHost = awaitingHost;
  }

  /**
   * A context of `sourceId` now, when one is free or may be made and no run waits before this
   * one: `preferred` (the context of the run's step before, whose /tmp files it holds) if free.
   */
  claimNow(sourceId: string, preferred?: string): string | undefined {
    if (this.#waiting.has(sourceId)) return undefined;
    if (preferred !== undefined && sourceOf(preferred) === sourceId && this.#isMade(preferred) && !this.#claimed.has(preferred)) {
      this.#claimed.add(preferred);
      return preferred;
    }
    return this.#take(sourceId);
  }

  #isMade(slot: string): boolean {
    const at = slot.indexOf(SEPARATOR);
    const n = at < 0 ? 0 : Number(slot.slice(at + 1));
    return n < (this.#made.get(sourceOf(slot)) ?? 0);
  }

  /**
   * The key of a context of `sourceId` for one invocation, held until `release` (in arrival
   * order); undefined once it has waited `maxWaitMs`.
   */
  claim(sourceId: string, maxWaitMs = Infinity): Promise<string | undefined> {
    const now = this.claimNow(sourceId);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<string | undefined>((take) => {
      let waiting = this.#waiting.get(sourceId);
      if (!waiting) this.#waiting.set(sourceId, (waiting = { queue: [], timer: undefined }));
      waiting.queue.push({ take, until: performance.now() + maxWaitMs });
      this.#arm(sourceId, waiting);
    });
  }

  release(slot: string): void {
    const sourceId = sourceOf(slot);
    const waiting = this.#waiting.get(sourceId);
    const next = waiting?.queue.shift();
    if (!next) return void this.#claimed.delete(slot);
    // handed on as it is: the oldest waiting run takes it, still claimed
    if (waiting!.queue.length === 0) this.#stopWaiting(sourceId, waiting!);
    next.take(slot);
  }

  claimed(slot: string): boolean {
    return this.#claimed.has(slot);
  }

  /** a free context of the source, or a new one while none is free and a busy one waits on the host */
  #take(sourceId: string): string | undefined {
    const made = this.#made.get(sourceId) ?? 0;
    for (let n = 0; n < made; n++) {
      const slot = slotKey(sourceId, n);
      if (this.#claimed.has(slot)) continue;
      this.#claimed.add(slot);
      return slot;
    }
    if (made === 0 || (made < MAX_PER_SOURCE && this.#someAwaitHost(sourceId, made))) {
      this.#made.set(sourceId, made + 1);
      const slot = slotKey(sourceId, made);
      this.#claimed.add(slot);
      return slot;
    }
    return undefined;
  }

  #someAwaitHost(sourceId: string, made: number): boolean {
    for (let n = 0; n < made; n++) if (this.#awaitingHost(slotKey(sourceId, n))) return true;
    return false;
  }

  /** every RECHECK_MS while runs wait: a busy context may have started waiting on the host meanwhile */
  #arm(sourceId: string, waiting: Waiting): void {
    if (waiting.timer !== undefined) return;
    waiting.timer = setTimeout(() => {
      waiting.timer = undefined;
      while (waiting.queue.length > 0) {
        const slot = this.#take(sourceId);
        if (slot === undefined) break;
        waiting.queue.shift()!.take(slot);
      }
      // the oldest wait longest: those past their time give up
      const now = performance.now();
      while (waiting.queue.length > 0 && waiting.queue[0]!.until <= now) waiting.queue.shift()!.take(undefined);
      if (waiting.queue.length === 0) this.#stopWaiting(sourceId, waiting);
      else this.#arm(sourceId, waiting);
    }, RECHECK_MS);
    // the runner lives as long as its host; this keeps nothing alive
    waiting.timer.unref();
  }

  #stopWaiting(sourceId: string, waiting: Waiting): void {
    clearTimeout(waiting.timer);
    waiting.timer = undefined;
    if (this.#waiting.get(sourceId) === waiting) this.#waiting.delete(sourceId);
  }
}

/** the first context of a source is keyed by its id alone, as before side-by-side runs */
const SEPARATOR = "\u0000";
const slotKey = (sourceId: string, n: number) => (n === 0 ? sourceId : `${sourceId}${SEPARATOR}${n}`);
const sourceOf = (slot: string) => slot.split(SEPARATOR, 1)[0]!;
