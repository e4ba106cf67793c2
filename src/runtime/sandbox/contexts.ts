// Which warm context of a source an invocation runs in. A source's invocations come one at a
// time (one order key: sandbox/invoke.ts), so they always take its first context and its module
// state carries from run to run. A workflow's runs come side by side (each run is its own order
// key): each takes a free context of the workflow's. A new one is made only while a busy one
// waits on the host (a fetch, a timer): then the isolate's thread is free for another run. Runs
// that only compute take turns in the contexts there are, as new contexts would not run them any
// sooner (one thread) and cost memory and a cold start each. At most MAX_PER_SOURCE; past that a
// run waits for one to come free. Contexts of one owner's code share isolates (isolate-pool.ts):
// a further context costs about 0.34 MB.

/** contexts of one source running at once: the runs of one workflow a runner executes side by side */
export const MAX_PER_SOURCE = 128;
/** how often a run waiting for a context looks again whether a new one may be made */
const RECHECK_MS = 2;

export class ContextSlots {
  readonly #claimed = new Set<string>();
  /** contexts made per source (slots 0..n-1) */
  readonly #made = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();
  /** whether the invocation holding `slot` waits on the host */
  readonly #awaitingHost: (slot: string) => boolean;

  constructor(awaitingHost: (slot: string) => boolean) {
    this.#awaitingHost = awaitingHost;
  }

  /** the key of a context of `sourceId` for one invocation, held until `release` */
  async claim(sourceId: string): Promise<string> {
    for (;;) {
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
      await this.#wait(sourceId);
    }
  }

  release(slot: string): void {
    this.#claimed.delete(slot);
    const sourceId = sourceOf(slot);
    const list = this.#waiting.get(sourceId);
    const next = list?.shift();
    if (list && list.length === 0) this.#waiting.delete(sourceId);
    next?.();
  }

  claimed(slot: string): boolean {
    return this.#claimed.has(slot);
  }

  #someAwaitHost(sourceId: string, made: number): boolean {
    for (let n = 0; n < made; n++) if (this.#awaitingHost(slotKey(sourceId, n))) return true;
    return false;
  }

  /** until a context is released, or RECHECK_MS (a busy one may have started waiting on the host) */
  #wait(sourceId: string): Promise<void> {
    return new Promise<void>((go) => {
      const list = this.#waiting.get(sourceId) ?? [];
      this.#waiting.set(sourceId, list);
      const wake = () => {
        clearTimeout(timer);
        go();
      };
      const timer = setTimeout(() => {
        const at = list.indexOf(wake);
        if (at >= 0) list.splice(at, 1);
        if (list.length === 0 && this.#waiting.get(sourceId) === list) this.#waiting.delete(sourceId);
        go();
      }, RECHECK_MS);
      list.push(wake);
    });
  }
}

/** the first context of a source is keyed by its id alone, as before side-by-side runs */
const SEPARATOR = "\u0000";
const slotKey = (sourceId: string, n: number) => (n === 0 ? sourceId : `${sourceId}${SEPARATOR}${n}`);
const sourceOf = (slot: string) => slot.split(SEPARATOR, 1)[0]!;
