import { Stack, Text, Title } from "@mantine/core";
import { StepCard, type Span } from "./step-card.tsx";
import { FixFailedStep } from "./fix-failed-step.tsx";
import type { Run, RunStep } from "./run-types.ts";

/** Where a step ran within the run, as fractions of the run's time so far. */
function spanOf(step: RunStep, start: number, total: number, now: number): Span | undefined {
  if (step.started_at_ms === null) return undefined;
  const from = Math.min(1, Math.max(0, (step.started_at_ms - start) / total));
  const width = Math.min(1 - from, Math.max(0, ((step.ended_at_ms ?? now) - step.started_at_ms) / total));
  return { from, width };
}

export function StepTimeline({ run, now, onShowAll, expanding }: { run: Run; now: number; onShowAll: () => void; expanding: boolean }) {
  const steps = run.steps ?? [];
  const total = Math.max(1, (run.ended_at_ms ?? now) - run.started_at_ms);
  return (
    <Stack gap="xs" data-testid="steps">
      <Title order={4} mt="md">
        Steps
      </Title>
      {steps.length === 0 && (
        <Text size="sm" c="dimmed">
          This run has no steps recorded.
        </Text>
      )}
      {steps.map((s, i) => (
        <StepCard
          key={`${i}:${s.id}`}
          step={s}
          index={i}
          span={spanOf(s, run.started_at_ms, total, now)}
          now={now}
          onShowAll={onShowAll}
          expanding={expanding}
          footer={run.status === "failed" && s.status === "failed" ? <FixFailedStep run={run} step={s.name} /> : undefined}
        />
      ))}
    </Stack>
  );
}
