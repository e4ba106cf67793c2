import { memo, type ReactNode } from "react";
import { Badge, Box, Group, Paper, Text } from "@mantine/core";
import { StatusBadge, statusColor } from "./run-status-badge.tsx";
import { Section } from "./section.tsx";
import { ValueView } from "./value-view.tsx";
import { ErrorBlock, LogList } from "./log-list.tsx";
import { SendList } from "./send-list.tsx";
import { formatDuration } from "./run-time.ts";
import { errorInfo, isTruncated, logLines, type RunStep } from "./run-types.ts";

// One step of a run: status, duration and where it fell in the run (the bar), then what it
// returned, exported, logged, threw and queued. Small parts start open; big ones start closed so a
// long run stays scannable.

/** where the step ran, as fractions of the run's time */
export interface Span {
  from: number;
  width: number;
}

const SMALL_JSON = 600;
const small = (v: unknown) => !isTruncated(v) && JSON.stringify(v ?? null).length <= SMALL_JSON;
const isEmptyObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

const NOTHING: Record<string, string> = {
  pending: "Not reached yet.",
  skipped: "Skipped: the run ended before this step.",
  running: "Running…",
  suspended: "Waiting: the run goes on from here when it resumes.",
};

function Bar({ span, color }: { span: Span; color: string }) {
  return (
    <Box h={4} bg="gray.1" mt={6} style={{ borderRadius: 2, position: "relative", overflow: "hidden" }} data-testid="step-bar" aria-hidden>
      <Box
        h="100%"
        bg={`${color}.5`}
        style={{ position: "absolute", left: `${span.from * 100}%`, width: `max(3px, ${span.width * 100}%)`, borderRadius: 2 }}
      />
    </Box>
  );
}

interface Props {
  step: RunStep;
  index: number;
  span: Span | undefined;
  now: number;
  onShowAll: () => void;
  expanding: boolean;
  /** what to do about the step (the failed step's Retry and Replay) */
  footer?: ReactNode;
}

export const StepCard = memo(function StepCard({ step, index, span, now, onShowAll, expanding, footer }: Props) {
  const error = errorInfo(step.error);
  const logs = logLines(step.logs);
  const duration = step.started_at_ms === null ? null : (step.ended_at_ms ?? now) - step.started_at_ms;
  const hasReturn = step.return_value !== null && step.return_value !== undefined;
  const hasExports = step.exports !== null && step.exports !== undefined && !isEmptyObject(step.exports);
  const empty = !error && !hasReturn && !hasExports && logs.length === 0 && step.sends.length === 0;

  return (
    <Paper withBorder p="sm" data-testid="step" data-step-name={step.name} data-status={step.status}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed" w={18} ta="right">
            {index + 1}
          </Text>
          <Text fw={600} ff="monospace" truncate="end" style={{ minWidth: 0 }}>
            {step.name}
          </Text>
          <StatusBadge status={step.status} size="xs" />
        </Group>
        <Group gap="xs" wrap="nowrap">
          {step.attempts > 1 && (
            <Badge size="xs" variant="outline" color="orange" data-testid="step-attempts">
              {step.attempts} attempts
            </Badge>
          )}
          <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }} data-testid="step-duration">
            {duration === null ? "—" : formatDuration(duration)}
          </Text>
        </Group>
      </Group>
      {span && <Bar span={span} color={statusColor(step.status)} />}
      {error && (
        <Section title="Error" hint={`${error.name}: ${error.message}`} defaultOpen testid="step-error">
          <ErrorBlock error={error} />
        </Section>
      )}
      {hasReturn && (
        <Section title="Return value" defaultOpen={small(step.return_value)} testid="step-return">
          <ValueView value={step.return_value} onShowAll={onShowAll} loading={expanding} />
        </Section>
      )}
      {hasExports && (
        <Section title="Exports" hint={isTruncated(step.exports) ? undefined : Object.keys(step.exports as object).join(", ")} defaultOpen={small(step.exports)} testid="step-exports">
          <ValueView value={step.exports} onShowAll={onShowAll} loading={expanding} />
        </Section>
      )}
      {logs.length > 0 && (
        <Section title={`Logs (${logs.length})`} defaultOpen={logs.length <= 20} testid="step-logs">
          <LogList lines={logs} />
        </Section>
      )}
      {step.sends.length > 0 && (
        <Section title={`Sends (${step.sends.length})`} defaultOpen testid="step-sends">
          <SendList sends={step.sends} now={now} />
        </Section>
      )}
      {empty && (
        <Text size="xs" c="dimmed" mt={6} pl={26}>
          {NOTHING[step.status] ?? "Returned nothing, logged nothing."}
        </Text>
      )}
      {footer}
    </Paper>
  );
});
