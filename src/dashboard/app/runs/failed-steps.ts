import { useEffect, useState } from "react";
import { useSession } from "../session-context.ts";
import { errorInfo, type Run } from "./run-types.ts";

// The runs list has no steps (the API leaves them out of lists), so the step a failed run failed
// at is read from the run itself, once per run: a run that has ended doesn't change, so what was
// read is kept for as long as the page is open and every later list reuses it.

export interface FailedAt {
  step: string;
  /** the error's first line: "Error: card declined" */
  error: string;
}

const known = new Map<string, FailedAt | null>();
const asked = new Set<string>();
/** lists open now, told when a run was read (one may have asked before another mounted) */
const listeners = new Set<() => void>();

/** What each failed run of `runs` failed at, read lazily; a run not read yet is absent. */
export function useFailedSteps(runs: readonly Run[] | undefined): ReadonlyMap<string, FailedAt | null> {
  const { api } = useSession();
  const [, setVersion] = useState(0);
  const key = (runs ?? []).filter((r) => r.status === "failed").map((r) => r.id).join(",");
  useEffect(() => {
    const tell = () => setVersion((v) => v + 1);
    listeners.add(tell);
    return () => void listeners.delete(tell);
  }, []);
  useEffect(() => {
    const todo = key.split(",").filter((id) => id && !asked.has(id));
    for (const id of todo) asked.add(id);
    // one at a time: a list of 50 failed runs shouldn't be 50 requests at once on a shared service
    void (async () => {
      for (const id of todo) {
        const res = await api.GET("/v1/runs/{run_id}", { params: { path: { run_id: id } } }).catch(() => undefined);
        const run = res?.data?.data;
        if (!run) {
          asked.delete(id);
          continue;
        }
        known.set(id, failedAt(run));
        for (const tell of listeners) tell();
      }
    })();
  }, [api, key]);
  return known;
}

export function failedAt(run: Run): FailedAt | null {
  const step = run.steps?.find((s) => s.status === "failed");
  if (!step) return null;
  const e = errorInfo(step.error);
  return { step: step.name, error: e ? `${e.name}: ${e.message}`.split("\n")[0]! : "failed" };
}
