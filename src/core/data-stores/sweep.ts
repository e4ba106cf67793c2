import type { Store } from "../../store/port.ts";
import { isStorageUnavailable } from "../../store/faults.ts";

// Removes expired data store records in the background. Reads never return them anyway, and a
// write to a store removes its own first; the sweep frees the space of stores nobody writes. Each
// node sweeps (the deletes are idempotent); one pass is bounded, the next minute takes the rest.

const SWEEP_MS = 60_000;
/** stores one pass visits, and records it removes from each */
const STORES_PER_PASS = 100;
const RECORDS_PER_STORE = 1000;

export class DataStoreSweep {
  readonly #store: Store;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(store: Store) {
    this.#store = store;
  }

  start(log: (err: unknown) => void, intervalMs = SWEEP_MS): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#running || !this.#store.available) return;
      this.#running = this.pass()
        .then(() => undefined)
        .catch((err) => {
          // a storage fault is reported once by the store's own listeners
          if (!isStorageUnavailable(err)) log(err);
        })
        .finally(() => (this.#running = undefined));
    }, intervalMs);
    this.#timer.unref();
  }

  /** One pass: up to STORES_PER_PASS stores, each in its own short transaction. Returns records removed. */
  async pass(nowMs = Date.now()): Promise<number> {
    let removed = 0;
    for (const id of await this.#store.dataStoreRecords.expiredStores(nowMs, STORES_PER_PASS)) {
      removed += await this.#store.transaction((tx) => tx.dataStoreRecords.purge(id, nowMs, RECORDS_PER_STORE));
    }
    return removed;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
