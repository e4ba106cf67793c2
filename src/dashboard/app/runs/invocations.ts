import { errorInfo, logLines, type ErrorInfo, type LogLine } from "./run-types.ts";

// A source's invocations, put together from its $errors and $logs events: both name the
// invocation they came from (`invocation: {id, kind, started_at}`). Events from before the id
// existed are matched on kind and start time (an error's); log lines that name no invocation at
// all stand on their own.

export interface StreamEvent {
  id: string;
  indexed_at_ms: number;
  event: unknown;
}

export interface Invocation {
  key: string;
  /** when it started (else when its first event was written) */
  at: number;
  kind: string | null;
  /** `inv_...`, when its events name it */
  id: string | null;
  errors: ErrorInfo[];
  lines: LogLine[];
  /** its newest event's id, the tie-break among invocations started in the same ms */
  newest: string;
}

interface Named {
  id: string | null;
  kind: string | null;
  started_at: number | null;
}

function invocationOf(payload: unknown): Named | undefined {
  const inv = (payload as { invocation?: unknown } | null)?.invocation;
  if (typeof inv !== "object" || inv === null) return undefined;
  const o = inv as { id?: unknown; kind?: unknown; started_at?: unknown };
  return {
    id: typeof o.id === "string" ? o.id : null,
    kind: typeof o.kind === "string" ? o.kind : null,
    started_at: typeof o.started_at === "number" ? o.started_at : null,
  };
}

const keyOf = (n: Named | undefined, e: StreamEvent, stream: string): string =>
  n?.id ?? (n && n.started_at !== null ? `${n.kind ?? ""}@${n.started_at}` : `${stream}:${e.id}`);

/** `<ms>-<seq>` ids, compared as numbers */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am - bm || as - bs;
}

export function groupInvocations(errors: Iterable<StreamEvent>, logs: Iterable<StreamEvent>): Invocation[] {
  const byKey = new Map<string, Invocation>();
  const entry = (e: StreamEvent, n: Named | undefined, stream: string): Invocation => {
    const key = keyOf(n, e, stream);
    let inv = byKey.get(key);
    if (!inv) {
      inv = { key, at: n?.started_at ?? e.indexed_at_ms, kind: n?.kind ?? null, id: n?.id ?? null, errors: [], lines: [], newest: e.id };
      byKey.set(key, inv);
    }
    if (compareIds(e.id, inv.newest) > 0) inv.newest = e.id;
    return inv;
  };
  // oldest first, so lines and errors read in the order they were written
  const ordered = (events: Iterable<StreamEvent>) => [...events].sort((a, b) => compareIds(a.id, b.id));
  for (const e of ordered(errors)) {
    const error = errorInfo((e.event as { error?: unknown } | null)?.error);
    if (error) entry(e, invocationOf(e.event), "$errors").errors.push(error);
  }
  for (const e of ordered(logs)) {
    entry(e, invocationOf(e.event), "$logs").lines.push(...logLines((e.event as { lines?: unknown } | null)?.lines));
  }
  return [...byKey.values()].sort((a, b) => b.at - a.at || compareIds(b.newest, a.newest));
}
