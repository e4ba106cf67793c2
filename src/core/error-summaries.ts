import type { ErrorSummaryRow } from "../store/port.ts";

// What lists and pages show of an emitter's failures: how many errors it has on $errors, and the
// newest one's message, read out of either shape of an $errors event's `error` (a source's
// {name, message, stack}, a workflow's {code, msg, step, ...}).

export interface ErrorSummary {
  id: string;
  /** $errors events stored (the stream keeps its newest events) */
  count: number;
  last_error: { name: string; message: string; at_ms: number; step: string | null };
}

const MESSAGE_MAX = 500;

export function errorSummary(row: ErrorSummaryRow): ErrorSummary {
  let name = "Error";
  let message = "";
  let step: string | null = null;
  try {
    const e = (JSON.parse(row.last_error) as Record<string, unknown> | null) ?? {};
    const text = (v: unknown) => (typeof v === "string" ? v : undefined);
    name = text(e.name) ?? text(e.code) ?? name;
    message = text(e.message) ?? text(e.msg) ?? "";
    step = text(e.step) ?? null;
  } catch {
    // a payload that isn't JSON is still an error: its count and time say so
  }
  return { id: row.emitter_id, count: row.total, last_error: { name, message: message.slice(0, MESSAGE_MAX), at_ms: row.last_ms, step } };
}
