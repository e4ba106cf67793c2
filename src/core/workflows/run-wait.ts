import type { SecretBox } from "../../lib/secret-box.ts";

// What a waiting run waits for (docs/writing-workflows.md), kept as JSON in its row (`wait`), and the URLs that
// end a wait early. The URLs carry no API key: they are meant for emails and chat messages. Each
// names one wait of one run (its step and that step's execution count) with an HMAC token
// (SecretBox.token), so nothing secret is stored, a resume URL given out for an earlier wait of the
// run can't end a later one, and the service can sign the same URL again after a restart. A cancel
// URL cancels its run for as long as the run is live, whichever wait it was given out with.

export type RunWait =
  /** $.flow.delay: the next step starts at due_at_ms, or when resumed */
  | { kind: "delay"; idx: number; runs: number; resumed?: boolean }
  /** $.flow.suspend: the next step starts when resumed; at due_at_ms (the timeout) the run fails */
  | { kind: "suspend"; idx: number; runs: number; resumed?: boolean }
  /** $.flow.rerun: the same step runs again at due_at_ms, or when its resume URL is called */
  | { kind: "rerun"; idx: number; runs: number; max: number; context?: string; callback?: string }
  /**
   * settings.retries: the failed step runs again at due_at_ms, as try `attempt` of the same
   * execution (`runs`, and a rerun's context and callback, stay). Rows written before `attempt`
   * existed kept the try in `runs`.
   */
  | { kind: "retry"; idx: number; runs: number; attempt?: number; context?: string; callback?: string }
  /** settings.concurrency or rate: the run starts when there is room */
  | { kind: "queued"; idx: number; runs: number };

/** The wait of a run that has not started yet: its first step runs when it is taken up. */
export function queuedWait(): string {
  // `kind` first: the store finds queued runs by this text's start (store/queries/runs/runs.ts)
  return JSON.stringify({ kind: "queued", idx: 0, runs: 1 } satisfies RunWait);
}

export function parseWait(json: string | null): RunWait | undefined {
  if (json === null) return undefined;
  try {
    const w = JSON.parse(json) as RunWait;
    return typeof w === "object" && w !== null && typeof w.kind === "string" && Number.isInteger(w.idx) ? w : undefined;
  } catch {
    return undefined;
  }
}

const PURPOSE = "run-wait";

/** what a wait's token signs: the run, the step, and which execution of the step */
const signed = (runId: string, idx: number, runs: number) => `${runId}.${idx}.${runs}`;

export type WaitAction = "resume" | "cancel";

/** the URLs a step's $.flow call returns (they name the wait it starts) */
export function waitUrls(box: SecretBox, publicUrl: string, runId: string, idx: number, runs: number): { resume_url: string; cancel_url: string } {
  const base = `${publicUrl}/flow/${runId}/${idx}.${runs}.${box.token(PURPOSE, signed(runId, idx, runs))}`;
  return { resume_url: `${base}/resume`, cancel_url: `${base}/cancel` };
}

/**
 * The wait a URL's `key` (`<idx>.<runs>.<token>`) names, when its token is the run's; undefined
 * for anything else (a forged or mistyped URL reads like a missing run).
 */
export function checkWaitKey(box: SecretBox, runId: string, key: string): { idx: number; runs: number } | undefined {
  const m = /^(\d{1,6})\.(\d{1,6})\.([A-Za-z0-9_-]{1,100})$/.exec(key);
  if (!m) return undefined;
  const idx = Number(m[1]);
  const runs = Number(m[2]);
  return box.checkToken(PURPOSE, signed(runId, idx, runs), m[3]!) ? { idx, runs } : undefined;
}
