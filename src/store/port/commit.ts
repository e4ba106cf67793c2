import type { DataStoreWrites } from "../../lib/data-store-limits.ts";
import type { DeliveryRow } from "./deliveries.ts";
import type { EmitterStateRow, EventRow } from "./events.ts";
import type { RunSendRow } from "./run-sends.ts";
import type { RunRow, RunStepRow } from "./runs.ts";

export interface UsageIncrement {
  user_id: string;
  day: string;
  invocations: number;
  compute_ms: number;
}

/** Everything a group of finished invocations writes, committed as one transaction. */
export interface CommitBatch {
  events: EventRow[];
  states: EmitterStateRow[];
  /** inbox rows whose invocation is done */
  inboxDone: number[];
  timers: { source_id: string; next_due_ms: number }[];
  usage: UsageIncrement[];
  /** streams written to: each keeps only its newest `keep` events */
  trims: { emitter_id: string; event_name: string; keep: number }[];
  /** deliveries of the events above */
  deliveries: DeliveryRow[];
  /** deliveries whose listener has finished with them */
  deliveriesDone: string[];
  /** workflow runs written (inserted, or updated by id) and their steps (by run_id and idx) */
  runs: RunRow[];
  runSteps: RunStepRow[];
  /** workflows whose runs keep only the newest `keep` that ended (running and suspended ones stay) */
  runTrims: { workflow_id: string; keep: number }[];
  /** runs' writes to data stores (their `data_store` props), applied in order per store */
  dataStores: DataStoreWrites[];
  /** what the steps committed here queued with $.send.http / $.send.email */
  sends: RunSendRow[];
  /**
   * Several nodes: the partition leases (id, epoch) this node must still hold for the batch to
   * commit; checked in the transaction, which fails with FencedError when one was taken over.
   */
  fence?: { node: string; leases: Array<[partition: number, epoch: number]> };
}

/** A commit refused because this node no longer holds a partition lease it was written under. */
export class FencedError extends Error {
  constructor(partitions: number[], message?: string) {
    super(message ?? `this node no longer holds partition${partitions.length === 1 ? "" : "s"} ${partitions.join(", ")}: its work there is another node's now`);
    this.name = "FencedError";
  }
}
