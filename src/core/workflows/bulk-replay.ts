import type { RunStatus, Store, UserRow, WorkflowRow } from "../../store/port.ts";
import { AppError } from "../../lib/errors.ts";
import type { RunControls } from "./runs.ts";

// Replaying many runs at once (POST /v1/workflows/{id}/runs/replay): the runs that failed during
// an outage, say, each replayed as one replay would be (a new run of the current deployment with
// its trigger event), newest first. Each is accepted durably before the next; the owner's quota
// stops it part way (the runs replayed so far stand, and the answer says how many matched).

export const MAX_BULK_REPLAY = 1000;

export interface BulkFilter {
  status: RunStatus;
  /** started at or after (ms) */
  since?: number;
  /** started at or before (ms) */
  until?: number;
  limit: number;
}

export async function bulkReplay(store: Store, controls: RunControls, user: UserRow, w: WorkflowRow, filter: BulkFilter): Promise<{ runs: string[]; matched: number; stopped?: string }> {
  const { status, limit, ...range } = filter;
  const { runs, matched } = await store.runs.matching(w.id, { status, ...range }, Math.min(limit, MAX_BULK_REPLAY));
  const replayed: string[] = [];
  for (const run of runs) {
    try {
      replayed.push(await controls.replay(user, w, run, "current"));
    } catch (e) {
      // past the quota, or the workflow was disabled meanwhile: what is replayed stands
      if (e instanceof AppError && (e.code === "quota_exceeded" || e.code === "conflict") && replayed.length > 0) return { runs: replayed, matched, stopped: e.message };
      throw e;
    }
  }
  return { runs: replayed, matched };
}
