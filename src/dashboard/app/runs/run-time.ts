import { useEffect, useState } from "react";

// Durations and clock times of the run screens; absolute times are the app's one format (time-format.ts).

export { formatWhen } from "../time-format.ts";

/** A log line's time of day, to the millisecond: lines of one step are often within a second. */
export const formatClock = (ms: number): string =>
  new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3, hour12: false });

export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

/** "in 4 min 05 s" / "2 s ago", for a time that is near. */
export const relative = (ms: number, now: number): string => (ms >= now ? `in ${formatDuration(ms - now)}` : `${formatDuration(now - ms)} ago`);

/** The time now, ticking every second while `ticking` (durations of runs still going). */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  return now;
}
