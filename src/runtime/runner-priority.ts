import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

// Runners run component code at a lower CPU priority than the service (nice 10 by default,
// TRIBUTARY_RUNNER_NICE). Past capacity the service's event loop (the HTTP edge, the store) and
// the runners compete for the same cores; at equal priority the runners, busy draining the
// backlog, took the CPU the edge needed, and endpoint latency grew to tens of seconds in the
// overload bench (the inbox bound never answered 429 because requests waited in sockets, not in
// the inbox). At a lower priority the kernel serves the loop first and gives the runners all the
// CPU it leaves: on an idle or lightly loaded machine components run exactly as fast as before.
//
// Linux keeps a nice value per thread (new threads take their creator's), so every thread of the
// runner is set: once when it is forked (the threads it starts later inherit it) and once when
// it first answers (for the threads Node started before the first call landed). Elsewhere the
// value is the process's. Lowering a child's priority needs no privilege; failures are ignored:
// the runner then just competes as an equal, as before.

/** Runs every thread of `pid` `nice` steps below this process (at most 19, the lowest); 0 leaves it alone. */
export function lowerPriority(pid: number | undefined, nice: number): void {
  if (pid === undefined || nice <= 0) return;
  const value = Math.min(19, getPriority() + nice);
  for (const id of threadsOf(pid)) {
    try {
      setPriority(id, value);
    } catch {
      // the thread ended meanwhile, or the system refuses: nothing to do
    }
  }
}

function threadsOf(pid: number): number[] {
  if (process.platform !== "linux") return [pid];
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid];
  }
}
