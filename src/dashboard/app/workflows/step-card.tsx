import { memo } from "react";
import { ActionIcon, Badge, Group, Paper, Stack, TextInput, Tooltip } from "@mantine/core";
import type { StepErrors } from "./draft-errors.ts";
import type { StepDraft } from "./workflow-draft.ts";
import { CodeStepBody } from "./code-step.tsx";
import { ActionStepBody } from "./action-step.tsx";
import { StepTest } from "./step-test.tsx";

export type StepUpdate = (index: number, change: (s: StepDraft) => StepDraft) => void;

interface Props {
  step: StepDraft;
  index: number;
  count: number;
  error?: StepErrors;
  onUpdate: StepUpdate;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (index: number) => void;
}

/** One step of the form: its name (the key of its result in `steps`), then its code or its action's props. */
export const StepCard = memo(function StepCard({ step, index, count, error, onUpdate, onMove, onRemove }: Props) {
  const label = step.name || `step ${index + 1}`;
  const kind = step.kind === "code" ? "code" : (step.component?.name ?? "action");
  return (
    <Paper withBorder p="md" data-testid="step" data-step-name={step.name} data-step-kind={step.kind}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
          <Group gap="sm" align="flex-end" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
            <Badge variant="light" size="lg" radius="sm" mb={4} style={{ flexShrink: 0 }}>
              {index + 1}
            </Badge>
            <TextInput
              label="Step name"
              description="Later steps read steps.<name>.$return_value"
              value={step.name}
              onChange={(e) => {
                const name = e.currentTarget.value;
                onUpdate(index, (s) => ({ ...s, name }));
              }}
              error={error?.name}
              required
              style={{ flex: 1, minWidth: 0, maxWidth: 360 }}
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
              rightSection={
                <Badge variant="outline" color={step.kind === "code" ? "gray" : "teal"} size="xs" maw={96} style={{ textTransform: "none" }}>
                  {kind}
                </Badge>
              }
              rightSectionWidth={104}
              rightSectionPointerEvents="none"
            />
          </Group>
          <Group gap={4} wrap="nowrap" mb={4}>
            <Tooltip label="Move up">
              <ActionIcon variant="default" onClick={() => onMove(index, -1)} disabled={index === 0} aria-label={`Move ${label} up`}>
                ↑
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down">
              <ActionIcon variant="default" onClick={() => onMove(index, 1)} disabled={index === count - 1} aria-label={`Move ${label} down`}>
                ↓
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Remove">
              <ActionIcon variant="subtle" color="red" onClick={() => onRemove(index)} disabled={count === 1} aria-label={`Remove ${label}`}>
                ✕
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        {step.kind === "code" ? (
          <CodeStepBody step={step} label={label} index={index} error={error} onUpdate={onUpdate} />
        ) : (
          <ActionStepBody step={step} index={index} error={error} onUpdate={onUpdate} />
        )}
        <StepTest step={step} />
      </Stack>
    </Paper>
  );
});
