import type { EventKey, EventRow } from "../store/port.ts";

// Event summary items (docs/api.md, "Events") are rendered straight to JSON text: the payload is
// already JSON in the store, so it is spliced in rather than parsed and stringified again.

const TRUNCATE_BYTES = 1024;

export const eventId = (k: EventKey): string => `${k.ms}-${k.n}`;

export function parseEventId(raw: string): EventKey | undefined {
  const m = /^(\d{1,16})-(\d{1,9})$/.exec(raw);
  if (!m) return undefined;
  const ms = Number(m[1]);
  return Number.isSafeInteger(ms) ? { ms, n: Number(m[2]) } : undefined;
}

function metadata(e: EventRow): string {
  const m: Record<string, unknown> = { emit_id: e.emit_id, name: e.event_name, emitter_id: e.emitter_id };
  if (e.meta.id !== undefined) m.id = e.meta.id;
  if (e.meta.summary !== undefined) m.summary = e.meta.summary;
  m.ts = e.meta.ts;
  return JSON.stringify(m);
}

function truncated(e: EventRow): string {
  // "the first 1024 bytes of its JSON", cut on a character boundary so the preview stays text
  const preview = Buffer.from(e.payload, "utf8").subarray(0, TRUNCATE_BYTES).toString("utf8").replace(/\uFFFD$/, "");
  return JSON.stringify({ truncated: true, preview, size: e.size });
}

/** One summary item as JSON; `full` = expand=event (and SSE, which never truncates). */
export function renderItem(e: EventRow, full: boolean): string {
  const event = full || e.size <= TRUNCATE_BYTES ? e.payload : truncated(e);
  return `{"id":"${eventId(e)}","indexed_at_ms":${e.indexed_at_ms},"event":${event},"metadata":${metadata(e)}}`;
}
