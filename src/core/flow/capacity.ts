// How much queued work (accepted runs, deliveries) may be held in memory at once, across every
// source: a count and the bytes of the events it carries. The rest stays where it already is
// durably (the inbox, the delivery table) and is read back as capacity frees up, so a burst
// costs disk, not RSS. Takers that find it full wait in arrival order.

export class Capacity {
  readonly #maxRuns: number;
  readonly #maxBytes: number;
  #runs = 0;
  #bytes = 0;
  readonly #waiting = new Set<() => boolean>();

  constructor(maxRuns: number, maxBytes: number) {
    this.#maxRuns = maxRuns;
    this.#maxBytes = maxBytes;
  }

  get inFlight(): number {
    return this.#runs;
  }

  /** runs that would still fit now (by count; the bytes may bind first) */
  get freeRuns(): number {
    return Math.max(0, this.#maxRuns - this.#runs);
  }

  /** Takes room for one run of `bytes`; false when full. One run always fits in an empty pool. */
  tryTake(bytes: number): boolean {
    if (this.#runs > 0 && (this.#runs >= this.#maxRuns || this.#bytes + bytes > this.#maxBytes)) return false;
    this.#runs++;
    this.#bytes += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#runs--;
    this.#bytes -= bytes;
    this.wakeNext();
  }

  /**
   * Wakes the longest waiter that still wants room; it takes what it can and waits again if that
   * is not enough. A waiter that no longer wants room (its work went, or waits for something
   * else) answers false and the next is woken; one that goes for the room but then finds nothing
   * to take calls this in turn. So free room never sits unused while others wait.
   */
  wakeNext(): void {
    for (;;) {
      const next = this.#waiting.values().next();
      if (next.done) return;
      this.#waiting.delete(next.value);
      if (next.value()) return;
    }
  }

  /**
   * Calls `wake` (once) when room frees up; it answers whether it goes for the room. Registering
   * the same function twice waits once.
   */
  whenFree(wake: () => boolean): void {
    this.#waiting.add(wake);
  }

  forget(wake: () => boolean): void {
    this.#waiting.delete(wake);
  }
}
