// The one way the dashboard writes a time: absolute in the browser's locale (short date, time to
// the second), and "x ago" for recent ones with the absolute time as its tooltip.

export const formatWhen = (ms: number): string => new Date(ms).toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" });

/** The API's epoch seconds (created_at, updated_at) in the same format. */
export const formatSeconds = (s: number): string => formatWhen(s * 1000);

/** "just now", "42 s ago", "5 min ago", "3 h ago"; older: the date. */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 10) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return formatWhen(ms);
}
