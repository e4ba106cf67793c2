import { memo } from "react";
import { Anchor, Paper, Table, Text } from "@mantine/core";
import { href, navigate } from "../router.ts";
import { StatusBadge } from "./run-status-badge.tsx";
import { formatDuration, formatWhen } from "./run-time.ts";
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

const RunRow = memo(function RunRow({ run, fresh, now }: { run: Run; fresh: boolean; now: number }) {
  const trigger = triggerSummary(run.trigger_event);
  return (
    <Table.Tr
      onClick={(e) => {
        // the link in the row navigates by itself (and opens a new tab with a modifier)
        if (!(e.target instanceof Element && e.target.closest("a"))) navigate("runs", run.id);
      }}
      style={{ cursor: "pointer" }}
      className={fresh ? "event-new" : undefined}
      data-testid="run-row"
      data-run-id={run.id}
      data-status={run.status}
    >
      <Table.Td>
        <StatusBadge status={run.status} />
      </Table.Td>
      <Table.Td>
        <Anchor href={href("runs", run.id)} size="sm" style={{ whiteSpace: "nowrap" }}>
          {formatWhen(run.started_at_ms)}
        </Anchor>
        {/* narrow screens have no room for their own columns */}
        <Text size="xs" c="dimmed" lineClamp={2} hiddenFrom="sm" style={{ overflowWrap: "anywhere" }}>
          {trigger}
          {run.summary ? ` · ${run.summary}` : ""}
        </Text>
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
        <Text size="sm" c={run.summary ? undefined : "dimmed"} truncate="end" title={run.summary ?? undefined}>
          {run.summary ?? "—"}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
});

export function RunsTable({ runs, fresh, now }: { runs: Run[]; fresh: ReadonlySet<string>; now: number }) {
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={340} type="native">
        <Table highlightOnHover verticalSpacing="sm" data-testid="runs-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={120}>Status</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th visibleFrom="sm">Trigger</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th visibleFrom="sm">Summary</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((r) => (
              <RunRow key={r.id} run={r} fresh={fresh.has(r.id)} now={isLive(r.status) ? now : 0} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
