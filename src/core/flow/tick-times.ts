import { Cron } from "croner";
import type { TimerConfig } from "../props.ts";

// When a timer's ticks happen. A timer is armed with setTimeout, which waits on a monotonic
// clock, while due times are wall-clock times (stored, so that a restart knows them): when the
// wall clock is stepped back (NTP, a VM resumed), a tick fires when its wait is over but finds the
// wall clock before its due time. Scheduled from that due time, the next tick would wait for the
// step as well (an hour back: an hour without ticks); it is scheduled from the wall clock instead.

/** a wall clock this far behind a tick that fired was stepped back */
export const STEPPED_BACK_MS = 1000;

export function nextAfter(timer: TimerConfig, afterMs: number): number {
  if ("cron" in timer) {
    const next = new Cron(timer.cron, { paused: true, timezone: "UTC" }).nextRun(new Date(afterMs));
    return next ? next.getTime() : Number.POSITIVE_INFINITY;
  }
  return afterMs + timer.intervalSeconds * 1000;
}

/**
 * A tick due at `due` fired with the wall clock at `wallNow`: the time it runs at (its event's
 * timestamp) and when the next one is due. A late tick counts once and the next is due on
 * schedule; setTimeout may fire a millisecond early (a tick due on a whole second must not carry
 * the second before); a clock stepped back counts from the wall clock.
 */
export function afterTick(timer: TimerConfig, due: number, wallNow: number): { now: number; next: number } {
  if (wallNow < due - STEPPED_BACK_MS) return { now: wallNow, next: nextAfter(timer, wallNow) };
  const now = Math.max(wallNow, due);
  let next = nextAfter(timer, due);
  if (next <= now) next = nextAfter(timer, now);
  return { now, next };
}
