import type { InboxRow, Store } from "../../store/port.ts";

// Accepted invocations are written to the inbox before the caller hears "accepted". Requests
// that arrive while one insert transaction runs share the next one (group commit), so the
// durable reply costs a fraction of a transaction each under load.

type Pending = { row: Omit<InboxRow, "seq">; resolve: (seq: number) => void; reject: (e: unknown) => void };

export class InboxQueue {
  readonly #store: Store;
  #pending: Pending[] = [];
  #running = false;
  #scheduled = false;

  constructor(store: Store) {
    this.#store = store;
  }

  add(row: Omit<InboxRow, "seq">): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ row, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    if (this.#running || this.#pending.length === 0) return;
    this.#running = true;
    const batch = this.#pending.splice(0, 1000);
    try {
      const seqs = await this.#store.events.inboxAdd(batch.map((p) => p.row));
      batch.forEach((p, i) => p.resolve(seqs[i]));
    } catch (e) {
      batch.forEach((p) => p.reject(e));
    } finally {
      this.#running = false;
      if (this.#pending.length > 0) this.#schedule();
    }
  }
}
