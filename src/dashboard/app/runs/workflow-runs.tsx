import { useEffect, useState } from "react";
import { Group, Select, Skeleton, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { toastDone } from "../ui/toasts.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { LoadMore } from "../ui/load-more.tsx";
import { RunsTable } from "./runs-table.tsx";
import { BulkOutcome, ReplayFailed, ReplaySelected, type BulkResult } from "./bulk-replay.tsx";
import { useLiveRuns } from "./use-live-runs.ts";
import { useNow } from "./run-time.ts";
import { RUN_STATUSES, type RunStatus } from "./run-types.ts";

const FILTER = [{ value: "", label: "All statuses" }, ...RUN_STATUSES.map((s) => ({ value: s, label: s }))];

/** The Runs tab of a workflow: its runs newest first, live, each opening the run inspector. */
export function WorkflowRuns({ workflowId }: { workflowId: string }) {
  const { api } = useSession();
  const [status, setStatus] = useState<RunStatus | "">("");
  const list = useLiveRuns(workflowId, status || undefined);
  // ticks while anything is listed: durations of live runs, and the "12 s ago" of recent ones
  const now = useNow((list.data?.length ?? 0) > 0);
  const { error, act } = useAction();
  // runs ticked in the list, for "Replay selected"; another filter starts with none
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [result, setResult] = useState<BulkResult>();
  useEffect(() => setSelected(new Set()), [workflowId, status]);
  const bulkDone = (r: BulkResult) => {
    setResult(r);
    setSelected(new Set());
    void list.reload();
  };
  const runNow = () =>
    act("Run now", () => api.POST("/v1/workflows/{id}/run", { params: { path: { id: workflowId } } }), async () => {
      toastDone("Run requested");
      await list.reload();
    });

  return (
    <Stack gap="sm" data-testid="workflow-runs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Select
          aria-label="Status"
          data={FILTER}
          value={status}
          onChange={(v) => setStatus((v ?? "") as RunStatus | "")}
          allowDeselect={false}
          w={170}
          size="xs"
          data-testid="status-filter"
        />
        {/* nothing to replay before the first run */}
        {list.data && list.data.length > 0 && (
          <Group gap="xs" wrap="wrap">
            <ReplaySelected ids={[...selected]} onDone={bulkDone} />
            <ReplayFailed workflowId={workflowId} onDone={bulkDone} />
          </Group>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {list.data && list.total > 0 ? `${list.total} run${list.total === 1 ? "" : "s"}${status ? ` ${status}` : ""}, newest first · refreshed live` : ""}
      </Text>
      <BulkOutcome outcome={result} onClose={() => setResult(undefined)} />
      <ErrorAlert error={list.error} title="Could not list the runs" />
      <ErrorAlert error={error} />
      {list.loading && <Skeleton h={120} />}
      {list.data?.length === 0 &&
        (status ? (
          <EmptyState title={`No ${status} runs`} text="None of this workflow's runs has this status. Pick All statuses to see every run." />
        ) : (
          <EmptyState
            title="No runs yet"
            text={`Each time the workflow is triggered (a request to its endpoint, its schedule, an event it subscribes to), a run is recorded here with what each step returned, logged and threw. Or run it now; from a script, POST /v1/workflows/${workflowId}/run.`}
            action={{ label: "Run now", onClick: () => void runNow() }}
          />
        ))}
      {list.data && list.data.length > 0 && <RunsTable runs={list.data} fresh={list.fresh} now={now} selected={selected} onSelect={setSelected} />}
      <LoadMore list={list} noun="runs" />
    </Stack>
  );
}
