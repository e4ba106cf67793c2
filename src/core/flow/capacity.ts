// How much queued work (accepted runs, deliveries) may be held in memory at once, across every
// source: a count and the bytes of the events it carries. The rest stays where it already is
// durably (the inbox, the delivery table) and is read back as capacity frees up, so a burst
// costs disk, not RSS. Takers that find it full wait in arrival order.
//
// Accepted runs (the inbox) have a second, moving limit of their own (`inboxLimit`, set by
// edge-first.ts): past capacity the HTTP edge that accepts them gets the event loop first.

export class Capacity {
  readonly #maxRuns: number;
  readonly #maxBytes: number;
  #runs = 0;
  #bytes = 0;
  #inboxRuns = 0;
  #inboxLimit = Infinity;
  /** waiters in arrival order, and whether each waits to hold an accepted run */
  readonly #waiting = new Map<() => boolean, boolean>();

  constructor(maxRuns: number, maxBytes: number) {
    this.#maxRuns = maxRuns;
    this.#maxBytes = maxBytes;
  }

  get inFlight(): number {
    return this.#runs;
  }

  get maxRuns(): number {
    return this.#maxRuns;
  }

  /** accepted runs held now (part of inFlight) */
  get inboxInFlight(): number {
    return this.#inboxRuns;
  }

  /** the most accepted runs held at once now (Infinity: only the shared count binds) */
  get inboxLimit(): number {
    return this.#inboxLimit;
  }

  set inboxLimit(n: number) {
    const before = this.#inboxLimit;
    this.#inboxLimit = Math.max(1, n);
    // Room that opened is handed out now: lanes waiting for it would otherwise wait for a run
    // to end, and with none in flight nothing would ever wake them.
    for (let i = 0; i < Math.min(this.#waiting.size, this.#inboxLimit - before); i++) this.wakeNext();
  }

  /** runs that would still fit now (by count; the bytes may bind first); `inbox`: an accepted run's */
  freeRuns(inbox = false): number {
    const shared = this.#maxRuns - this.#runs;
    return Math.max(0, inbox ? Math.min(shared, this.#inboxLimit - this.#inboxRuns) : shared);
  }

  /**
   * Takes room for one run of `bytes` (`inbox`: an accepted run); false when full. One run always
   * fits in an empty pool, and one accepted run when none is held.
   */
  tryTake(bytes: number, inbox = false): boolean {
    if (inbox && this.#inboxRuns > 0 && this.#inboxRuns >= this.#inboxLimit) return false;
    if (this.#runs > 0 && (this.#runs >= this.#maxRuns || this.#bytes + bytes > this.#maxBytes)) return false;
    this.#runs++;
    this.#bytes += bytes;
    if (inbox) this.#inboxRuns++;
    return true;
  }

  give(bytes: number, inbox = false): void {
    this.#runs--;
    this.#bytes -= bytes;
    if (inbox) this.#inboxRuns--;
    this.wakeNext();
  }

  /**
   * Wakes the longest waiter that still wants room; it takes what it can and waits again if that
   * is not enough. A waiter that no longer wants room (its work went, or waits for something
   * else) answers false and the next is woken; one that goes for the room but then finds nothing
   * to take calls this in turn. So free room never sits unused while others wait.
   */
  wakeNext(): void {
    // Accepted runs' lanes are passed over while their own limit is reached: woken, they would
    // find no room, wake the next such lane, and so on, each time reading the inbox for nothing.
    for (;;) {
      const inboxFull = this.#inboxRuns > 0 && this.#inboxRuns >= this.#inboxLimit;
      let next: (() => boolean) | undefined;
      for (const [wake, inbox] of this.#waiting) {
        if (inbox && inboxFull) continue;
        next = wake;
        break;
      }
      if (!next) return;
      this.#waiting.delete(next);
      if (next()) return;
    }
  }

  /**
   * Calls `wake` (once) when room frees up (`inbox`: room for an accepted run); it answers whether
   * it goes for the room. Registering the same function twice waits once.
   */
  whenFree(wake: () => boolean, inbox = false): void {
    if (!this.#waiting.has(wake)) this.#waiting.set(wake, inbox);
  }

  forget(wake: () => boolean): void {
    this.#waiting.delete(wake);
  }
}
