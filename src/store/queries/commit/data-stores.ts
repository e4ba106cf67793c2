import type { Kysely } from "kysely";
import type { Database } from "../../schema.ts";
import type { CommitBatch, DataStoreOp } from "../../port.ts";
import { MAX_KEYS } from "../../../lib/data-store-limits.ts";
import { dataStoreRecordQueries } from "../data-store-records.ts";

/**
 * Applies the batch's data store writes (runs' `data_store` props: docs/writing-workflows.md, "Data stores") in the commit's
 * transaction, so they land with the step or invocation that made them, or not at all. One apply
 * per store, its writes in batch order; stores in id order, so two nodes' commits that touch the
 * same stores lock their rows in the same order and never deadlock on them. A set that would be a
 * new key past the store's limit is dropped (the apply refuses it), as is every write to a store
 * deleted meanwhile.
 */
export async function writeDataStores(trx: Kysely<Database>, batch: CommitBatch): Promise<void> {
  if (batch.dataStores.length === 0) return;
  const byStore = new Map<string, DataStoreOp[]>();
  for (const w of batch.dataStores) {
    const ops = byStore.get(w.store);
    if (ops) for (const op of w.ops) ops.push(op);
    else byStore.set(w.store, [...w.ops]);
  }
  const records = dataStoreRecordQueries(trx);
  const now = Date.now();
  for (const store of [...byStore.keys()].sort()) await records.apply(store, byStore.get(store)!, now, MAX_KEYS);
}
