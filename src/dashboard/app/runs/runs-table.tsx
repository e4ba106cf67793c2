import { memo, useCallback, useRef } from "react";
import { Anchor, Box, Checkbox, Paper, Table, Text } from "@mantine/core";
import { href, navigate } from "../router.ts";
import { StatusBadge } from "./run-status-badge.tsx";
import { formatDuration, formatWhen } from "./run-time.ts";
import { ago } from "../time-format.ts";
import { useFailedSteps, type FailedAt } from "./failed-steps.ts";
import { triggerSummary } from "./trigger-summary.ts";
import { isLive, type Run } from "./run-types.ts";

// The runs of a workflow as a table; a row opens its run. Rows are memoised on the run object,
// which the live list keeps while the run doesn't change: only a running one ticks.

function Duration({ run, now }: { run: Run; now: number }) {
  if (run.ended_at_ms !== null) return <Text size="sm">{formatDuration(run.ended_at_ms - run.started_at_ms)}</Text>;
  return (
    <Text size="sm" c="dimmed" fs="italic" title="still going">
      {formatDuration(now - run.started_at_ms)}
    </Text>
  );
}

/** "replay of r_…" / "retry of r_…", linked to the run it came from */
function Lineage({ run }: { run: Run }) {
  const from = run.retry_of ? { what: "retry of", id: run.retry_of } : run.replay_of ? { what: "replay of", id: run.replay_of } : undefined;
  if (!from) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="run-lineage" style={{ overflowWrap: "anywhere" }}>
      {from.what}{" "}
      <Anchor href={href("runs", from.id)} size="xs" ff="monospace">
        {from.id}
      </Anchor>
    </Text>
  );
}

/** where a failed run failed: its step and the first line of its error */
function FailedLine({ failed }: { failed: FailedAt }) {
  return (
    <Text size="xs" c="red.8" lineClamp={2} style={{ overflowWrap: "anywhere" }} title={`step ${failed.step}: ${failed.error}`} data-testid="run-failed-at">
      step <b>{failed.step}</b>: {failed.error}
    </Text>
  );
}

interface RowProps {
  run: Run;
  fresh: boolean;
  now: number;
  failed: FailedAt | null | undefined;
  selected: boolean;
  onToggle: (id: string) => void;
}

const RunRow = memo(function RunRow({ run, fresh, now, failed, selected, onToggle }: RowProps) {
  const trigger = triggerSummary(run.trigger_event);
  return (
    <Table.Tr
      onClick={(e) => {
        // the link in the row navigates by itself (and opens a new tab with a modifier); the
        // checkbox's cell selects
        if (!(e.target instanceof Element && e.target.closest("a, [data-selects]"))) navigate("runs", run.id);
      }}
      style={{ cursor: "pointer" }}
      className={fresh ? "event-new" : undefined}
      data-testid="run-row"
      data-run-id={run.id}
      data-status={run.status}
      bg={selected ? "var(--mantine-primary-color-light)" : undefined}
    >
      <Table.Td data-selects w={36} pr={0} style={{ cursor: "default" }} onClick={() => onToggle(run.id)}>
        <Checkbox checked={selected} onChange={() => undefined} aria-label={`Select run ${run.id}`} size="xs" styles={{ input: { cursor: "pointer" } }} data-testid="run-select" />
      </Table.Td>
      <Table.Td>
        <StatusBadge status={run.status} />
      </Table.Td>
      <Table.Td>
        <Anchor href={href("runs", run.id)} size="sm" style={{ whiteSpace: "nowrap" }} title={formatWhen(run.started_at_ms)} data-testid="run-started">
          {ago(run.started_at_ms, now)}
        </Anchor>
        <Lineage run={run} />
        {/* narrow screens have no room for their own columns */}
        <Text size="xs" c="dimmed" lineClamp={2} hiddenFrom="sm" style={{ overflowWrap: "anywhere" }}>
          {trigger}
          {run.summary ? ` · ${run.summary}` : ""}
        </Text>
        <Box hiddenFrom="sm" maw={220}>
          {failed && <FailedLine failed={failed} />}
        </Box>
      </Table.Td>
      <Table.Td maw={260} visibleFrom="sm">
        <Text size="sm" ff="monospace" truncate="end" data-testid="run-trigger">
          {trigger}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        <Duration run={run} now={now} />
      </Table.Td>
      <Table.Td maw={360} visibleFrom="sm">
        {failed && <FailedLine failed={failed} />}
        {(run.summary || !failed) && (
          <Text size="sm" c={run.summary ? undefined : "dimmed"} truncate="end" title={run.summary ?? undefined}>
            {run.summary ?? "—"}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
});

// a live run's duration ticks every second; others only need their "x ago" to move, which past a
// minute moves by the minute (and past a day is a date that doesn't move)
const tickOf = (r: Run, now: number): number => {
  if (isLive(r.status)) return now;
  const age = now - r.started_at_ms;
  if (age < 60_000) return now;
  return age < 86_400_000 ? now - (now % 60_000) : r.started_at_ms + 86_400_000;
};

interface TableProps {
  runs: Run[];
  fresh: ReadonlySet<string>;
  now: number;
  /** the runs ticked (for Replay selected) */
  selected: ReadonlySet<string>;
  onSelect: (ids: ReadonlySet<string>) => void;
}

export function RunsTable({ runs, fresh, now, selected, onSelect }: TableProps) {
  const failed = useFailedSteps(runs);
  // rows are memoised: the toggle they get must not change with every selection
  const latest = useRef({ selected, onSelect });
  latest.current = { selected, onSelect };
  const toggle = useCallback((id: string) => {
    const next = new Set(latest.current.selected);
    if (!next.delete(id)) next.add(id);
    latest.current.onSelect(next);
  }, []);
  const ticked = runs.filter((r) => selected.has(r.id)).length;
  const all = runs.length > 0 && ticked === runs.length;
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={340} type="native">
        <Table highlightOnHover verticalSpacing="sm" data-testid="runs-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36} pr={0}>
                <Checkbox
                  size="xs"
                  checked={all}
                  indeterminate={ticked > 0 && !all}
                  onChange={() => onSelect(all ? new Set() : new Set(runs.map((r) => r.id)))}
                  aria-label="Select every run listed"
                  data-testid="select-all"
                />
              </Table.Th>
              <Table.Th w={120}>Status</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th visibleFrom="sm">Trigger</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th visibleFrom="sm">Summary · failed at</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((r) => (
              <RunRow key={r.id} run={r} fresh={fresh.has(r.id)} now={tickOf(r, now)} failed={failed.get(r.id)} selected={selected.has(r.id)} onToggle={toggle} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
