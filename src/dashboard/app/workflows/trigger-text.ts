export interface Trigger {
  type: string;
  endpoint_url?: string;
  interval_seconds?: number | null;
  cron?: string | null;
}

/** A workflow's trigger in words. */
export function triggerText(t: Trigger): string {
  if (t.type === "http") return "HTTP request";
  if (t.type === "timer") return t.cron ? `cron ${t.cron} (UTC)` : `every ${t.interval_seconds ?? "?"} s`;
  if (t.type === "none") return "events it subscribes to";
  return t.type;
}
