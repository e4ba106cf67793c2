import { useState } from "react";
import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { toastDone, toastFailed } from "../ui/toasts.ts";

// Replaying many of a workflow's runs at once, after a fix: the runs selected in the list (one
// replay each), or every failed run of a time range (POST /v1/workflows/{id}/runs/replay). Both
// run the workflow's current deployment, the fix-and-replay case.

const RANGES = [
  { value: "3600000", label: "Last hour", phrase: "in the last hour" },
  { value: "86400000", label: "24 h", phrase: "in the last 24 hours" },
  { value: "604800000", label: "7 days", phrase: "in the last 7 days" },
] as const;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface BulkResult {
  tone: "green" | "yellow" | "red" | "gray";
  text: string;
}

/** "Replay selected": one replay per selected run; says how many started and why any didn't. */
export function ReplaySelected({ ids, onDone }: { ids: readonly string[]; onDone: (outcome: BulkResult) => void }) {
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const replay = async () => {
    setBusy(true);
    let started = 0;
    const refused: string[] = [];
    for (const id of ids) {
      try {
        const res = await api.POST("/v1/runs/{run_id}/replay", { params: { path: { run_id: id } }, body: { deployment: "current" } });
        if (res.response.ok) started += 1;
        else refused.push(`${id}: ${messageOf(res.error)}`);
      } catch (e) {
        refused.push(`${id}: ${messageOf(e)}`);
      }
    }
    setBusy(false);
    if (refused.length === 0) {
      toastDone(`Started ${plural(started, "replay")}`);
      return onDone({ tone: "green", text: `Started ${plural(started, "replay")} of the selected runs, on the current code.` });
    }
    const text = `Started ${started} of ${plural(ids.length, "replay")}; ${refused.length} refused: ${refused.join("; ")}`;
    toastFailed("Replay selected", text);
    onDone({ tone: started > 0 ? "yellow" : "red", text });
  };
  return (
    <Button variant="light" size="xs" disabled={ids.length === 0} loading={busy} onClick={() => void replay()} data-testid="replay-selected">
      Replay selected{ids.length > 0 ? ` (${ids.length})` : ""}
    </Button>
  );
}

/** "Replay all failed…": a time range, then every failed run started in it replayed. */
export function ReplayFailed({ workflowId, onDone }: { workflowId: string; onDone: (outcome: BulkResult) => void }) {
  const { api } = useSession();
  const [opened, setOpened] = useState(false);
  const [range, setRange] = useState<string>(RANGES[1].value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const phrase = RANGES.find((r) => r.value === range)!.phrase;

  const replay = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const res = await api.POST("/v1/workflows/{id}/runs/replay", { params: { path: { id: workflowId } }, body: { status: "failed", since: Date.now() - Number(range) } });
      if (!res.response.ok || !res.data) {
        setError(`Replay failed: ${messageOf(res.error)}`);
        return toastFailed("Replay failed runs", messageOf(res.error));
      }
      const { matched, runs, stopped } = res.data.data;
      setOpened(false);
      if (matched === 0) return onDone({ tone: "gray", text: `No failed runs ${phrase}: nothing to replay.` });
      const text = `Matched ${plural(matched, "failed run")} ${phrase}; started ${plural(runs.length, "replay")}.${stopped ? ` Stopped early: ${stopped}` : ""}`;
      toastDone(text);
      onDone({ tone: stopped ? "yellow" : "green", text });
    } catch (e) {
      setError(`Replay failed: ${messageOf(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="default" size="xs" onClick={() => setOpened(true)} data-testid="replay-failed">
        Replay all failed…
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Replay failed runs">
        <Stack gap="sm" data-testid="replay-failed-form">
          <Text size="sm">
            Every run that failed {phrase} runs again with its trigger event on the workflow's current code, newest first (at most 1,000). The failed runs stay as they
            were; each replay is a new run linked to its original.
          </Text>
          <SegmentedControl fullWidth data={RANGES.map(({ value, label }) => ({ value, label }))} value={range} onChange={setRange} aria-label="Started within" />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button onClick={() => void replay()} loading={busy} data-testid="replay-failed-confirm">
              Replay failed runs
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** What the last bulk replay did, above the list until dismissed. */
export function BulkOutcome({ outcome, onClose }: { outcome: BulkResult | undefined; onClose: () => void }) {
  if (!outcome) return null;
  return (
    <Alert color={outcome.tone} variant="light" withCloseButton onClose={onClose} data-testid="bulk-result" data-tone={outcome.tone} style={{ overflowWrap: "anywhere" }}>
      {outcome.text}
    </Alert>
  );
}
