import { useSyncExternalStore } from "react";

// How long until a record expires, counting down on screen (absolute times are ../time-format.ts).
// Every countdown shares one timer, so a page of 100 records doesn't start 100 of them, and the
// timer stops when none is shown.

const TICK_MS = 1000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = Date.now();

function subscribe(onTick: () => void): () => void {
  listeners.add(onTick);
  if (!timer) {
    // the clock may have stood still since the last countdown left the page
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(onTick);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time now (ms), rendering the caller again every second while it is shown. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** "in 42 s", "in 5 min", "in 2 h 5 min", "in 3 d 4 h"; undefined once `ms` has passed. */
export function timeUntil(ms: number, from: number): string | undefined {
  const s = Math.ceil((ms - from) / 1000);
  if (s <= 0) return undefined;
  if (s < 60) return `in ${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `in ${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `in ${h} h ${min % 60} min` : `in ${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `in ${d} d ${h % 24} h` : `in ${d} d`;
}
