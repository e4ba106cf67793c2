import type { CommitBatch, ComponentRow, SourceRow, UserRow, WorkflowRow } from "../../store/port.ts";

// What an invocation runs (an emitter with its owner and code) and what it consumes.

export interface Target {
  source: SourceRow;
  user: UserRow;
  component: ComponentRow;
  endpointUrl: string | null;
  /** set when the emitter is a workflow (the source and component rows are its stand-ins) */
  workflow?: WorkflowRow;
}

export interface InvokeOptions {
  /** the inbox row this invocation consumes, removed in the same transaction */
  inboxSeq?: number;
  /** the timer's next due time, written in the same transaction */
  timerNextDueMs?: number;
  /** the delivery this invocation consumes, removed in the same transaction */
  delivery?: { id: string; hops: number; emitterId?: string };
  /** hooks of a source not created yet: run, but commit nothing */
  dryRun?: boolean;
  /**
   * Several nodes: the lease the durable work was taken under, captured when it starts, so a
   * result can't commit under a later lease of the same partition (another node may have run
   * the same row in between).
   */
  fence?: CommitBatch["fence"];
}
