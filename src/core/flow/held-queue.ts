// Requests waiting for room in the backlog (backlog.ts), grouped by connection and let in one
// connection at a time in turn: a connection with many requests waiting gets one in, then each
// other waiting connection gets one, and so on. Each waits at most its hold bound, then is refused.

interface Waiter {
  group: object;
  bytes: number;
  resolve: () => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class HeldQueue {
  /** waiting requests per connection; the Map's order is the turn order */
  readonly #groups = new Map<object, Waiter[]>();
  #size = 0;
  #bytes = 0;

  get size(): number {
    return this.#size;
  }

  /** bytes the waiting requests hold */
  get bytes(): number {
    return this.#bytes;
  }

  /** resolves when let in; rejects with refusal() after holdMs */
  add(group: object, bytes: number, holdMs: number, refusal: () => Error): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = { group, bytes, resolve, reject, timer: undefined as unknown as NodeJS.Timeout };
      w.timer = setTimeout(() => {
        this.#remove(w);
        reject(refusal());
      }, holdMs);
      const waiting = this.#groups.get(group);
      if (waiting) waiting.push(w);
      else this.#groups.set(group, [w]);
      this.#size++;
      this.#bytes += bytes;
    });
  }

  /** lets the next request in, the next connection's turn; false when none waits */
  letNextIn(): boolean {
    const first = this.#groups.entries().next();
    if (first.done) return false;
    const [group, waiting] = first.value;
    const w = waiting.shift()!;
    // its connection's turn is over: to the back of the line, if it has more waiting
    this.#groups.delete(group);
    if (waiting.length > 0) this.#groups.set(group, waiting);
    this.#forget(w);
    w.resolve();
    return true;
  }

  refuseAll(refusal: () => Error): void {
    for (const waiting of [...this.#groups.values()]) {
      for (const w of waiting) {
        this.#forget(w);
        w.reject(refusal());
      }
    }
    this.#groups.clear();
  }

  #remove(w: Waiter): void {
    const waiting = this.#groups.get(w.group);
    if (!waiting) return;
    const at = waiting.indexOf(w);
    if (at < 0) return;
    waiting.splice(at, 1);
    if (waiting.length === 0) this.#groups.delete(w.group);
    this.#size--;
    this.#bytes -= w.bytes;
  }

  #forget(w: Waiter): void {
    clearTimeout(w.timer);
    this.#size--;
    this.#bytes -= w.bytes;
  }
}
