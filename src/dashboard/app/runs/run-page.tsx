import { useCallback, useState } from "react";
import { Skeleton, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { CopyValue } from "../ui/copy-value.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { StatusBadge } from "./run-status-badge.tsx";
import { RunActions } from "./run-actions.tsx";
import { RunFacts, WaitingNote } from "./run-facts.tsx";
import { TriggerEvent } from "./trigger-event.tsx";
import { StepTimeline } from "./step-timeline.tsx";
import { POLL_MS, usePoll } from "./use-poll.ts";
import { useNow } from "./run-time.ts";
import { isLive, type Run } from "./run-types.ts";

type Expand = "event" | "steps";

const SENDS_POLL_MS = 4000;

/** The run inspector: one run, its trigger event and its steps, refreshed while it goes on. */
export function RunPage({ id }: { id: string }) {
  const { api } = useSession();
  // what the API should send whole rather than truncated ("Show all")
  const [expand, setExpand] = useState<readonly Expand[]>([]);
  const query = expand.length > 0 ? { expand: [...expand].sort().join(",") } : {};
  const run = useQuery(
    async (): Promise<Run> => dataOf(await api.GET("/v1/runs/{run_id}", { params: { path: { run_id: id }, query } })).data,
    [api, id, query.expand],
  );
  const r = run.data;
  const workflowId = r?.workflow_id;
  const workflow = useQuery(
    async () => (workflowId ? (await api.GET("/v1/workflows/{id}", { params: { path: { id: workflowId } } })).data?.data.name : undefined),
    [api, workflowId],
  );
  const live = r ? isLive(r.status) : false;
  // what a step queued is sent after it committed, and retried with backoff: an ended run's
  // sends can still change, only more slowly
  const sending = r?.steps?.some((s) => s.sends.some((x) => x.status === "pending")) ?? false;
  usePoll(run.reload, live ? POLL_MS : SENDS_POLL_MS, live || sending);
  const now = useNow(live);
  const showAll = (what: Expand) => setExpand((old) => (old.includes(what) ? old : [...old, what]));
  const showEvent = useCallback(() => showAll("event"), []);
  const showSteps = useCallback(() => showAll("steps"), []);

  if (run.error && !r) {
    if (run.error instanceof ApiError && isNotFound(run.error.body))
      return (
        <EmptyState
          title="Run not found"
          text={`There is no run ${id} among yours. A workflow keeps only its newest runs, so an old one may have been removed.`}
          action={{ label: "Go to workflows", href: href("workflows") }}
        />
      );
    return <ErrorAlert error={run.error} title="Could not read the run" />;
  }
  if (!r) return <Skeleton h={240} />;

  return (
    <Stack gap="md" data-testid="run-page" data-run-id={r.id} data-status={r.status}>
      <PageHeader
        title={
          <span style={{ display: "inline-flex", alignItems: "center", gap: "var(--mantine-spacing-sm)", flexWrap: "wrap" }}>
            Run <StatusBadge status={r.status} size="lg" />
          </span>
        }
        description={
          <>
            <Text size="xs" ff="monospace" span>
              {r.id}
            </Text>{" "}
            <CopyValue value={r.id} label="Copy the run id" />
            {r.summary && (
              <Text size="sm" c="dark" mt={4} data-testid="run-summary">
                {r.summary}
              </Text>
            )}
          </>
        }
      >
        <RunActions run={r} onChanged={run.reload} />
      </PageHeader>
      <ErrorAlert error={run.error} title="Could not refresh the run" />
      <WaitingNote run={r} now={now} />
      <RunFacts run={r} workflowName={workflow.data} now={now} />
      <TriggerEvent event={r.trigger_event} onShowAll={showEvent} expanding={run.loading && expand.includes("event")} />
      <StepTimeline run={r} now={now} onShowAll={showSteps} expanding={run.loading && expand.includes("steps")} />
    </Stack>
  );
}
