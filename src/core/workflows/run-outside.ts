import { phaseOf, storedAs, type RunPhase, type StoredPhase } from "./run-machine.ts";
import type { RunWait } from "./run-wait.ts";

// What changes a run from outside the engine (a resume or cancel, by URL or through the API), as
// run-machine.ts's phases see it: the store applies the change as one conditional update of the
// row as read, so a run that changed meanwhile is not changed twice (run-actions.ts).

/** What changes a run from outside the engine. */
export type OutsideAction =
  /** a resume URL (`url`: the wait it was given out for) or the API's resume; `request` as JSON */
  | { type: "resume"; request: string; url?: { idx: number; runs: number } }
  /** a cancel URL (`url`: the wait it was given out for; it ends that wait, not a running step) or the API's cancel */
  | { type: "cancel"; url?: { idx: number; runs: number } };

/** The conditional change an outside action makes: applied only while the row still holds `from`. */
export type OutsideChange =
  | { ok: true; from: StoredPhase; to: StoredPhase; resumeData?: { idx: number; json: string } }
  | { ok: false; conflict: string };

/** What `action` does to a run in the phase `row` is in: the change, or why it can't (a 409). */
export function outsideChange(row: StoredPhase, action: OutsideAction, now: number): OutsideChange {
  const phase = phaseOf(row);
  const from = { status: row.status, wait: row.wait, due_at_ms: row.due_at_ms };
  if (phase.kind === "ended") return { ok: false, conflict: `the run has ended: ${phase.status}` };
  if (action.type === "cancel") {
    const refused = cancelRefused(phase, action.url);
    return refused ? { ok: false, conflict: refused } : { ok: true, from, to: storedAs({ kind: "ended", status: "cancelled" }) };
  }
  if (action.url && (row.status !== "suspended" || phase.kind === "driving" || phase.kind === "waking" || phase.wait.idx !== action.url.idx || phase.wait.runs !== action.url.runs)) {
    return { ok: false, conflict: "the run is not waiting for this URL any more" };
  }
  if (row.status === "running") return { ok: false, conflict: "the run is running, not suspended" };
  switch (phase.kind) {
    case "delayed":
    case "suspended":
      if (phase.wait.resumed) return { ok: false, conflict: "the run was resumed already" };
      return { ok: true, from, to: storedAs({ ...phase, wait: { ...phase.wait, resumed: true }, dueAt: now } as RunPhase), resumeData: { idx: phase.wait.idx, json: action.request } };
    case "rerunning":
      if (phase.wait.callback !== undefined) return { ok: false, conflict: "the run was resumed already" };
      return { ok: true, from, to: storedAs({ ...phase, wait: { ...phase.wait, callback: action.request }, dueAt: now }) };
    default:
      return { ok: false, conflict: "the run is not waiting to be resumed" };
  }
}

/**
 * Why a live run in `phase` can't be cancelled now (undefined: it can). A wait ends once: a
 * resume that came first wins, and from then until the step after the wait has committed the
 * run goes on (a cancel then would end it `cancelled` with that step's work done). A running
 * step can be cancelled through the API (the step finishes, nothing after it runs), the first
 * step of a run taken up from the queue or from a wait that ended by itself included; not by a
 * cancel URL, which ends the one wait it was given out for and no later one.
 */
function cancelRefused(phase: Exclude<RunPhase, { kind: "ended" }>, url: { idx: number; runs: number } | undefined): string | undefined {
  if (url) {
    if (phase.kind === "driving") return "the run is not waiting any more: a step is running (cancel it through the API to stop it after that step)";
    if (phase.kind === "waking") return "the run's wait is over: its next step is starting";
    if (phase.wait.idx !== url.idx || phase.wait.runs !== url.runs) return "the run is not waiting for this URL any more";
  }
  switch (phase.kind) {
    case "delayed":
    case "suspended":
    case "rerunning":
      return wasResumed(phase.wait) ? "the run was resumed: it goes on past its wait" : undefined;
    case "waking":
      return wasResumed(phase.wait) ? "the run's wait is over: it was resumed, and its next step is starting" : undefined;
    case "driving":
    case "queued":
    case "retrying":
      return undefined;
  }
}

/** whether somebody resumed the wait (its URL or the API), rather than its time coming */
function wasResumed(wait: RunWait): boolean {
  if (wait.kind === "delay" || wait.kind === "suspend") return wait.resumed === true;
  if (wait.kind === "rerun") return wait.callback !== undefined;
  return false;
}
