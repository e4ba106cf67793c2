/** A send a step queued ($.send.http, $.send.email): sent after the step commits, retried on failure. */
export interface RunSendRow {
  /** `snd_...` */
  id: string;
  run_id: string;
  /** the step that queued it, and its place among that step's sends */
  step_idx: number;
  position: number;
  user_id: string;
  /** the workflow's partition: its owner sends it */
  partition: number;
  kind: "http" | "email";
  /** JSON text: http `{method, url, headers, body?}`, email `{subject, text?, html?}` */
  request: string;
  /** what a run shows of it: http `METHOD url`, email its subject */
  label: string;
  status: "pending" | "sent" | "failed";
  /** tries made */
  attempts: number;
  /** when it is tried next (pending ones) */
  next_at_ms: number;
  /** the HTTP status of the last try, when it got one */
  last_status: number | null;
  /** why the last try failed */
  last_error: string | null;
  created_at_ms: number;
  done_at_ms: number | null;
}

/** The sends steps queued; written by commits (CommitBatch.sends), then by the sender. */
export interface RunSendStore {
  /** a run's sends (their requests left out), by step and then in the order they were queued; at most `limit` */
  forRun(runId: string, limit: number): Promise<Array<Omit<RunSendRow, "request">>>;
  /** pending sends of the partitions and kinds that are due, soonest first */
  due(partitions: readonly number[], kinds: ReadonlyArray<RunSendRow["kind"]>, now: number, limit: number): Promise<RunSendRow[]>;
  /**
   * Takes a pending send for one try, counting it: its next try moves to `until` (another node's
   * scan, or a crash, finds it again only then), when it is still pending and due at `nextAt` as
   * read.
   */
  claim(id: string, nextAt: number, until: number): Promise<boolean>;
  /** records a try: still pending (with its next time), sent or failed */
  record(row: Pick<RunSendRow, "id" | "status" | "attempts" | "next_at_ms" | "last_status" | "last_error" | "done_at_ms">): Promise<void>;
}
