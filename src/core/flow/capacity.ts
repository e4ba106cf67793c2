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
  /** waiters for an accepted run's room and for any other, each in arrival order (the value) */
  readonly #inboxWaiting = new Map<() => boolean, number>();
  readonly #otherWaiting = new Map<() => boolean, number>();
  #arrivals = 0;

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
    // to end, and with none in flight nothing would ever wake them. (Counted first: each wake-up
    // takes a waiter off the queue.)
    const opened = Math.min(this.#inboxWaiting.size, this.#inboxLimit - before);
    for (let i = 0; i < opened; i++) this.wakeNext();
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
   * else) answers false and the next is woken; one that goes for the room and ends its turn
   * without waiting again calls passOn(). So free room never sits unused while others wait.
   */
  wakeNext(): void {
    // Accepted runs' lanes are passed over while their own limit is reached: woken, they would
    // find no room, wake the next such lane, and so on, each time reading the inbox for nothing.
    // Otherwise the longer waiting of the two queues' heads goes first.
    for (;;) {
      const inboxFull = this.#inboxRuns > 0 && this.#inboxRuns >= this.#inboxLimit;
      const inbox = inboxFull ? undefined : first(this.#inboxWaiting);
      const other = first(this.#otherWaiting);
      const next = inbox && (!other || inbox[1] < other[1]) ? inbox : other;
      if (!next) return;
      (next === inbox ? this.#inboxWaiting : this.#otherWaiting).delete(next[0]);
      if (next[0]()) return;
    }
  }

  /**
   * A lane that was woken (or ran through its own work) and did not end up waiting for room calls
   * this: whatever room is still free goes to the next waiter now, instead of sitting unused until
   * some other run ends. A lane that stopped for lack of room must not: it waits itself.
   */
  passOn(): void {
    if (this.#runs < this.#maxRuns && this.#bytes < this.#maxBytes) this.wakeNext();
  }

  /**
   * Calls `wake` (once) when room frees up (`inbox`: room for an accepted run); it answers whether
   * it goes for the room. Registering the same function twice waits once.
   */
  whenFree(wake: () => boolean, inbox = false): void {
    if (this.#inboxWaiting.has(wake) || this.#otherWaiting.has(wake)) return;
    (inbox ? this.#inboxWaiting : this.#otherWaiting).set(wake, this.#arrivals++);
  }

  forget(wake: () => boolean): void {
    this.#inboxWaiting.delete(wake);
    this.#otherWaiting.delete(wake);
  }
}

function first<K, V>(m: Map<K, V>): [K, V] | undefined {
  for (const entry of m) return entry;
  return undefined;
}
