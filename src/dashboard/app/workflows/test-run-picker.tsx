import { Select, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ago } from "../time-format.ts";
import { triggerSummary } from "../runs/trigger-summary.ts";

const RECENT = 20;

/** Which of the workflow's recent runs a step's Test runs against (its trigger event and earlier steps). */
export function TestRunPicker({ workflowId, value, onChange }: { workflowId: string; value: string | undefined; onChange: (id: string) => void }) {
  const { api } = useSession();
  const runs = useQuery(async () => {
    const res = await api.GET("/v1/workflows/{id}/runs", { params: { path: { id: workflowId }, query: { limit: RECENT } } });
    return res.data?.data ?? [];
  }, [api, workflowId]);
  const list = runs.data ?? [];
  const now = Date.now();
  const data = list.map((r) => ({ value: r.id, label: `${r.status} · ${ago(r.started_at_ms, now)} · ${triggerSummary(r.trigger_event)} · ${r.id}` }));
  // the run the editor was opened from may be older than the recent ones: it stays choosable
  if (value && !list.some((r) => r.id === value)) data.unshift({ value, label: value });
  if (runs.data && data.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="test-run-picker">
        Test needs a run to test against: run the workflow once, then each step can be tested here with its draft code.
      </Text>
    );
  return (
    <Select
      label="Test steps against the run"
      description="A step's Test runs its draft once with steps as this run had them, and commits nothing: no run is recorded, nothing is sent"
      data={data}
      value={value ?? null}
      onChange={(v) => v && onChange(v)}
      allowDeselect={false}
      searchable
      maw={560}
      data-testid="test-run-picker"
    />
  );
}
