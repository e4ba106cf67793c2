import { useEffect, useRef } from "react";

// Runs have no live stream, so their screens ask again. Only while the tab is shown (a hidden
// tab polling all day is load for nothing), never two requests at once (a slow answer delays the
// next one instead of piling up), and at once when the tab is shown again.

/** how often the run screens ask again: a run's steps often take about this long */
export const POLL_MS = 2000;

export function usePoll(tick: () => Promise<void>, ms: number, active: boolean): void {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let busy = false;
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && !document.hidden) timer = setTimeout(run, ms);
    };
    const run = async () => {
      if (busy || stopped) return;
      busy = true;
      try {
        await latest.current();
      } finally {
        busy = false;
        schedule();
      }
    };
    const onVisibility = () => (document.hidden ? clearTimeout(timer) : void run());
    document.addEventListener("visibilitychange", onVisibility);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [ms, active]);
}
