import type { CommitBatch } from "./commit.ts";
import type { Page } from "./paging.ts";

/** An event id, `${ms}-${n}`, as its two numbers. */
export interface EventKey {
  ms: number;
  n: number;
}

export interface EventMetaRow {
  id?: string | number;
  summary?: string;
  ts: number;
}

export interface EventRow extends EventKey {
  emitter_id: string;
  user_id: string;
  event_name: string;
  emit_id: string;
  indexed_at_ms: number;
  /** the event as JSON text */
  payload: string;
  /** bytes of payload */
  size: number;
  meta: EventMetaRow;
}

export interface EmitterStateRow {
  emitter_id: string;
  user_id: string;
  db: Record<string, unknown>;
  /** dedupe memory: the recent ids (unique), the greatest id (greatest) or the last id (last) */
  dedupe: { ids?: (string | number)[]; greatest?: number; last?: string | number };
  last_ms: number;
  last_n: number;
}

export interface InboxRow {
  seq: number;
  source_id: string;
  kind: string;
  /** the invocation's event as JSON text */
  event: string;
  received_at_ms: number;
}

export interface EventPageRequest {
  limit: number;
  /** strictly older than this id */
  after?: EventKey;
  /** strictly newer than this id */
  before?: EventKey;
}

/** An emitter's failures: its stored $errors events, and the newest one. */
export interface ErrorSummaryRow {
  emitter_id: string;
  total: number;
  last_ms: number;
  /** the newest $errors event's `error` member, JSON */
  last_error: string;
}

export interface EventStore {
  /** the user's emitters among `emitterIds` that have $errors events (another user's: none) */
  errorSummaries(userId: string, emitterIds: string[]): Promise<ErrorSummaryRow[]>;
  /** newest first */
  page(emitterId: string, eventName: string, req: EventPageRequest): Promise<Page<EventRow>>;
  /** oldest first, strictly after `from` (SSE replay) */
  since(emitterId: string, eventName: string, from: EventKey, limit: number): Promise<EventRow[]>;
  /** deletes the emitter's events (all streams) within the inclusive bounds, never past `upTo` */
  deleteRange(emitterId: string, start: EventKey | undefined, end: EventKey | undefined, upTo: EventKey): Promise<number>;
  /** deletes the emitter's events, state, inbox rows and timer (the emitter is gone) */
  deleteEmitter(emitterId: string): Promise<void>;
  state(emitterId: string): Promise<EmitterStateRow | undefined>;
  /** durably records accepted invocations; returns their inbox seqs in order */
  inboxAdd(rows: Omit<InboxRow, "seq">[]): Promise<number[]>;
  /** every pending inbox row, oldest first (replayed at start) */
  inboxPending(): Promise<InboxRow[]>;
  /** the sources that have pending inbox rows */
  inboxSources(): Promise<string[]>;
  /** how many inbox rows are pending (a metric: a full count, so read it seldom) */
  inboxCount(): Promise<number>;
  /** the pending inbox rows of enabled emitters (what the backlog bound counts; a full count too) */
  backlogCount(): Promise<number>;
  /** a source's oldest `limit` pending inbox rows after seq `afterSeq` (default: all), oldest first */
  inboxFor(sourceId: string, limit: number, afterSeq?: number): Promise<InboxRow[]>;
  timer(sourceId: string): Promise<number | undefined>;
  setTimer(sourceId: string, nextDueMs: number): Promise<void>;
  commit(batch: CommitBatch): Promise<void>;
}
