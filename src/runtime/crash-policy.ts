// What becomes of a request when its runner goes away under it, and when its deadline passes: a
// pure decision, so every case is in one table (crash-policy.test.ts) and RunnerProcess only
// carries it out.
//
// When the host killed the runner for one request's deadline, the others on it were innocent:
// they get one more try on a fresh runner. When it died by itself, the culprit is unknown:
// durable work (an inbox row, a delivery, a timer tick) runs once more, and what dies twice fails
// (its second death is its poison mark: core records it on $errors with its event).

/** How a runner went away. */
export type RunnerLoss =
  /** the host is shutting the runner down for good (RunnerProcess.close) */
  | "closing"
  /** the host killed it: another request overran, it sat idle or retired, or it hung before starting */
  | "killed-by-host"
  /** it died by itself: a crash, an out-of-memory kill, a channel it let go */
  | "died";

/** What a pending request has been through; kept on it across runners. */
export interface CrashHistory {
  /** already sent again after a kill of the host's: a second one fails it */
  retried: boolean;
  /** deaths of its runners not of the host's doing while it was pending on them */
  crashes: number;
}

export type CrashVerdict = { action: "resend"; history: CrashHistory } | { action: "fail" };

/**
 * The verdict for one request pending on a runner that went away. `durable`: its options'
 * retryOnCrash (it consumes durable work, so it must not be lost to one crash).
 */
export function afterRunnerLoss(loss: RunnerLoss, durable: boolean, history: CrashHistory): CrashVerdict {
  switch (loss) {
    case "closing":
      return { action: "fail" };
    case "killed-by-host":
      return history.retried ? { action: "fail" } : { action: "resend", history: { ...history, retried: true } };
    case "died":
      return durable && history.crashes === 0 ? { action: "resend", history: { ...history, crashes: history.crashes + 1 } } : { action: "fail" };
  }
}

/** What the host knows of a request whose deadline just passed. */
export interface OverrunFacts {
  /** its options' retryUnstarted: it says when the component's own part starts */
  retryUnstarted: boolean;
  /** the runner said it started on the component's part */
  started: boolean;
  /** it was sent again once already after a kill of the host's */
  retried: boolean;
  /** it went to a runner (not held back behind its key) */
  sent: boolean;
}

/**
 * "replace-runner": the runner was stuck before the component's code, so not on the request: the
 * runner is killed, the request's deadline starts again, and it goes to the fresh runner as an
 * innocent of that kill (afterRunnerLoss). "time-out": the request fails with its onTimeout, and
 * its runner (if it went to one) is killed, since it is stuck on it.
 */
export type OverrunVerdict = "replace-runner" | "time-out";

export function atDeadline(facts: OverrunFacts): OverrunVerdict {
  return facts.retryUnstarted && !facts.started && !facts.retried && facts.sent ? "replace-runner" : "time-out";
}
