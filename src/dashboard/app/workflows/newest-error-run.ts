import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { usePoll } from "../runs/use-poll.ts";

const SUCCESS_POLL_MS = 5000;

// The run behind a workflow's newest $errors event. Error summaries don't carry it; the event
// does, as its original_context.id (the r_ id the run's steps see as $.context.id).

/** the run id an $errors event's JSON names, if it names one */
export function runIdOf(event: unknown): string | undefined {
  const ctx = (event as { original_context?: { id?: unknown } } | null)?.original_context;
  return typeof ctx?.id === "string" && ctx.id.startsWith("r_") ? ctx.id : undefined;
}

/**
 * The run of the workflow's newest error, read again when a newer error arrives (`atMs`, from its
 * error summary); nothing while it has no error.
 */
export function useNewestErrorRun(workflowId: string, atMs: number | undefined): string | undefined {
  const { api } = useSession();
  const q = useQuery(async () => {
    if (atMs === undefined) return undefined;
    const res = await api.GET("/v1/workflows/{id}/$errors/event_summaries", { params: { path: { id: workflowId }, query: { limit: 1, expand: "event" } } });
    return runIdOf(res.data?.data[0]?.event);
  }, [api, workflowId, atMs]);
  return q.data;
}

/**
 * Whether a run of the workflow started after `atMs` succeeded: the failure is fixed (a retry, a
 * replay or a new request went through), so its banner has said what it had to.
 */
export function useSucceededSince(workflowId: string, atMs: number | undefined): boolean {
  const { api } = useSession();
  const q = useQuery(async () => {
    if (atMs === undefined) return false;
    const res = await api.GET("/v1/workflows/{id}/runs", { params: { path: { id: workflowId }, query: { status: "succeeded", limit: 1 } } });
    const newest = res.data?.data[0];
    return newest !== undefined && newest.started_at_ms > atMs;
  }, [api, workflowId, atMs]);
  // a retry made in another tab, or the next request, may go through while the page is open
  usePoll(q.reload, SUCCESS_POLL_MS, atMs !== undefined && q.data === false);
  return q.data ?? false;
}
