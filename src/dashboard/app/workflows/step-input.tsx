import { memo } from "react";
import { ActionIcon, Badge, Group, Paper, Stack, Textarea, TextInput, Tooltip } from "@mantine/core";
import type { StepDraft } from "./workflow-draft.ts";

interface Props {
  step: StepDraft;
  index: number;
  count: number;
  error?: { name?: string; code?: string };
  onChange: (index: number, step: StepDraft) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (index: number) => void;
}

/** One step of the form: its name (the key of its result in `steps`) and its module code. */
export const StepInput = memo(function StepInput({ step, index, count, error, onChange, onMove, onRemove }: Props) {
  const label = step.name || `step ${index + 1}`;
  return (
    <Paper withBorder p="md" data-testid="step" data-step-name={step.name}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="nowrap">
          <Group gap="sm" align="flex-end" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
            <Badge variant="light" size="lg" radius="sm" mb={4}>
              {index + 1}
            </Badge>
            <TextInput
              label="Step name"
              description="An identifier: later steps read steps.<name>.$return_value"
              value={step.name}
              onChange={(e) => onChange(index, { ...step, name: e.currentTarget.value })}
              error={error?.name}
              required
              style={{ flex: 1, maxWidth: 360 }}
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
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
        <Textarea
          label="Code"
          aria-label={`Code of ${label}`}
          value={step.code}
          onChange={(e) => onChange(index, { ...step, code: e.currentTarget.value })}
          error={error?.code}
          placeholder="export default { async run({ steps, $ }) { … } }"
          autosize
          minRows={6}
          maxRows={24}
          spellCheck={false}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 13 }, error: { whiteSpace: "pre-wrap" } }}
        />
      </Stack>
    </Paper>
  );
});
