import type { InvokeResult } from "../../runtime/protocol.ts";
import type { RunRow, RunSendRow } from "../../store/port.ts";
import { newId } from "../../lib/ids.ts";

// The sends a step queued ($.send.http, $.send.email: docs/writing-workflows.md), as the rows its commit writes.
// A step that failed queues nothing (its data store writes are dropped alike); one that ended well,
// exited or started a wait sends what it queued once it has committed.

export function sendRows(run: RunRow, idx: number, cellId: string | undefined, r: InvokeResult, now: number): RunSendRow[] | undefined {
  const cell = r.steps?.find((s) => s.cellId === cellId);
  if (!cell?.sends || cell.sends.length === 0) return undefined;
  return cell.sends.map((s, position) => ({
    id: newId("snd_"),
    run_id: run.id,
    step_idx: idx,
    position,
    user_id: run.user_id,
    partition: run.partition,
    kind: s.kind,
    request: s.request,
    label: labelOf(s.kind, s.request),
    status: "pending",
    attempts: 0,
    next_at_ms: now,
    last_status: null,
    last_error: null,
    created_at_ms: now,
    done_at_ms: null,
  }));
}

/** A send as a run's step shows it (GET /v1/runs/{id}). */
export interface SendView {
  id: string;
  kind: "http" | "email";
  status: RunSendRow["status"];
  attempts: number;
  /** http: method and URL; email: the subject */
  method?: string;
  url?: string;
  subject?: string;
  last_status: number | null;
  last_error: string | null;
  created_at_ms: number;
  done_at_ms: number | null;
  /** a pending send's next try */
  next_at_ms: number | null;
}

function labelOf(kind: RunSendRow["kind"], request: string): string {
  const req = JSON.parse(request) as { method?: string; url?: string; subject?: string };
  return kind === "http" ? `${req.method} ${req.url}` : String(req.subject);
}

export function sendView(s: Omit<RunSendRow, "request">): SendView {
  const space = s.label.indexOf(" ");
  return {
    id: s.id,
    kind: s.kind,
    status: s.status,
    attempts: s.attempts,
    ...(s.kind === "http" ? { method: s.label.slice(0, space), url: s.label.slice(space + 1) } : { subject: s.label }),
    last_status: s.last_status,
    last_error: s.last_error,
    created_at_ms: s.created_at_ms,
    done_at_ms: s.done_at_ms,
    next_at_ms: s.status === "pending" ? s.next_at_ms : null,
  };
}
