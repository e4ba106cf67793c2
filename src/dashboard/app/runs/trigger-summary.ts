import { isTruncated } from "./run-types.ts";

// What started a run, in a few words, from its trigger event: the HTTP request line, the timer,
// or a glimpse of the event. A big event comes truncated (its JSON's first KB as text), so the
// request line is looked for in that text too.

const fromPreview = (preview: string, key: string): string | undefined => {
  const m = new RegExp(`"${key}":"((?:[^"\\\\]|\\\\.)*)"`).exec(preview);
  if (!m) return undefined;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return undefined;
  }
};

const clip = (s: string, n = 80) => (s.length > n ? s.slice(0, n) + "…" : s);

export function triggerSummary(event: unknown): string {
  if (event === null || event === undefined) return "no event";
  if (isTruncated(event)) {
    const method = fromPreview(event.preview, "method");
    const path = fromPreview(event.preview, "path");
    return method && path ? `${method} ${path}` : clip(event.preview);
  }
  if (typeof event === "object" && !Array.isArray(event)) {
    const e = event as { method?: unknown; path?: unknown; timestamp?: unknown; interval_seconds?: unknown; cron?: unknown };
    if (typeof e.method === "string" && typeof e.path === "string") return `${e.method} ${e.path}`;
    if (typeof e.timestamp === "number") {
      if (typeof e.cron === "string") return `timer (cron ${e.cron})`;
      if (typeof e.interval_seconds === "number") return `timer (every ${e.interval_seconds} s)`;
      return "timer";
    }
  }
  return clip(JSON.stringify(event));
}
