import { Group, NumberInput, Paper, SimpleGrid, Stack, Switch, Text, Title } from "@mantine/core";
import type { SettingsErrors } from "./draft-errors.ts";
import type { SettingsDraft, TriggerDraft } from "./workflow-draft.ts";

interface Props {
  trigger: TriggerDraft;
  onTrigger: (t: TriggerDraft) => void;
  value: SettingsDraft;
  onChange: (s: SettingsDraft) => void;
  errors: SettingsErrors;
}

/** How runs are answered and paced: the HTTP reply, retries, concurrency, rate. An empty field is the default. */
export function SettingsInput({ trigger, onTrigger, value, onChange, errors }: Props) {
  const set = (patch: Partial<SettingsDraft>) => onChange({ ...value, ...patch });
  return (
    <Paper withBorder p="lg" data-testid="workflow-settings">
      <Stack gap="md">
        <div>
          <Title order={4}>Settings</Title>
          <Text size="sm" c="dimmed">
            Leave a field empty for the default.
          </Text>
        </div>
        {trigger.type === "http" && (
          <Switch
            label="Custom HTTP response"
            description="Hold each request's reply until a step calls $.respond({ status, headers, body }); otherwise it is answered 200 at once."
            checked={trigger.customResponse}
            onChange={(e) => onTrigger({ ...trigger, customResponse: e.currentTarget.checked })}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NumberInput
            label="Retries"
            description="Times a failed step runs again (0 to 8), after 10 s, 20 s, 40 s…"
            placeholder="0"
            min={0}
            max={8}
            allowDecimal={false}
            value={value.retries}
            onChange={(retries) => set({ retries })}
            error={errors.retries}
          />
          <NumberInput
            label="Concurrency"
            description="At most this many runs at once; the others wait in order"
            placeholder="no limit"
            min={1}
            max={10000}
            allowDecimal={false}
            value={value.concurrency}
            onChange={(concurrency) => set({ concurrency })}
            error={errors.concurrency}
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Rate
          </Text>
          <Text size="xs" c="dimmed">
            At most this many runs start in any window of that many seconds; the others wait.
          </Text>
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <NumberInput aria-label="Rate: runs" placeholder="no limit" min={1} allowDecimal={false} value={value.rateLimit} onChange={(rateLimit) => set({ rateLimit })} rightSection={<Text size="xs">runs</Text>} rightSectionWidth={44} w={160} />
            <Text size="sm" mt={6}>
              per
            </Text>
            <NumberInput aria-label="Rate: seconds" placeholder="—" min={1} max={86400} allowDecimal={false} value={value.ratePer} onChange={(ratePer) => set({ ratePer })} rightSection={<Text size="xs">s</Text>} w={140} />
          </Group>
          {errors.rate && (
            <Text size="xs" c="red">
              {errors.rate}
            </Text>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
