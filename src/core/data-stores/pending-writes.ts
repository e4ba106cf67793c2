import type { DataStoreOp, DataStoreWrites } from "../../store/port.ts";
import type { InvokeResult } from "../../runtime/protocol.ts";

// Runs' data store writes that have ended but not yet committed. A source's invocations are
// pipelined (the next runs while the last one's result is being committed), so a read that asked
// only the store would miss what the invocation before it wrote; reads lay these over the store's
// records (runner-reads.ts), as Pipedream's writes are seen at once. Each entry goes when its
// result's commit is done, or failed (then its writes never happened), or the result was dropped:
// Invocations releases it whatever became of it.

interface Entry {
  writes: DataStoreWrites[];
}

export class PendingWrites {
  #entries: Entry[] = [];

  /** Holds `writes` until `release(writes)` (the same array). */
  hold(writes: DataStoreWrites[]): void {
    this.#entries.push({ writes });
  }

  /**
   * Keeps the writes of the invocation `pending` settles to to the stores it may write (the
   * runner allows no other: checked again here, once) and, unless `dry`, holds them from when
   * they come; the function returned releases them (once its commit is done, failed or dropped).
   */
  track(pending: Promise<InvokeResult>, allowed: readonly string[] | undefined, dry: boolean): () => void {
    let held: DataStoreWrites[] | undefined;
    void pending.then((r) => {
      if (!r.dataStores) return;
      const writes = r.error || !allowed ? [] : r.dataStores.filter((w) => allowed.includes(w.store));
      if (writes.length === 0) {
        delete r.dataStores;
        return;
      }
      r.dataStores = writes;
      if (dry) return;
      held = writes;
      this.hold(writes);
    });
    return () => this.release(held);
  }

  release(writes: DataStoreWrites[] | undefined): void {
    if (!writes) return;
    const i = this.#entries.findIndex((e) => e.writes === writes);
    if (i >= 0) this.#entries.splice(i, 1);
  }

  /** the store's pending ops, oldest first */
  opsFor(store: string): DataStoreOp[] {
    const ops: DataStoreOp[] = [];
    for (const e of this.#entries) for (const w of e.writes) if (w.store === store) for (const op of w.ops) ops.push(op);
    return ops;
  }
}
