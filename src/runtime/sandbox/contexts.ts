// Which warm context of a source an invocation runs in. A source's invocations come one at a
// time (one order key: sandbox/invoke.ts), so they always take its first context and its module
// state carries from run to run. A workflow's runs come side by side (each run is its own order
// key): each takes a free context of the workflow, a new one when all are busy, up to
// MAX_PER_SOURCE; past that a run waits here for one to come free. Contexts of one owner's code
// share isolates (isolate-pool.ts): a further context costs about 0.34 MB.

/** contexts of one source running at once: the runs of one workflow a runner executes side by side */
export const MAX_PER_SOURCE = 128;

export class ContextSlots {
  readonly #claimed = new Set<string>();
  readonly #waiting = new Map<string, Array<() => void>>();

  /** the key of a context of `sourceId` for one invocation, held until `release` */
  async claim(sourceId: string): Promise<string> {
    for (;;) {
      for (let n = 0; n < MAX_PER_SOURCE; n++) {
        const slot = slotKey(sourceId, n);
        if (this.#claimed.has(slot)) continue;
        this.#claimed.add(slot);
        return slot;
      }
      await new Promise<void>((go) => {
        const list = this.#waiting.get(sourceId);
        if (list) list.push(go);
        else this.#waiting.set(sourceId, [go]);
      });
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
}

/** the first context of a source is keyed by its id alone, as before side-by-side runs */
const SEPARATOR = "\u0000";
const slotKey = (sourceId: string, n: number) => (n === 0 ? sourceId : `${sourceId}${SEPARATOR}${n}`);
const sourceOf = (slot: string) => slot.split(SEPARATOR, 1)[0]!;
