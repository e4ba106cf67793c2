import { Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { TriggerDraft } from "./workflow-draft.ts";

const HELP: Record<TriggerDraft["type"], string> = {
  http: "The workflow gets an HTTP endpoint; each request to it is a run (the request is steps.trigger.event).",
  timer: "The workflow runs on a schedule.",
  none: "The workflow runs only on the events of what it subscribes to, and on Run now.",
};

/** The trigger: an HTTP endpoint, a timer (every N seconds, or a cron expression in UTC), or none. */
export function TriggerInput({ value, onChange, error }: { value: TriggerDraft; onChange: (t: TriggerDraft) => void; error?: string }) {
  // three choices don't fit side by side on a phone
  const narrow = useMediaQuery("(max-width: 30em)");
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Trigger
      </Text>
      <SegmentedControl
        value={value.type}
        onChange={(type) => onChange({ ...value, type: type as TriggerDraft["type"] })}
        data={[
          { label: "HTTP endpoint", value: "http" },
          { label: "Timer", value: "timer" },
          { label: "None (subscriptions)", value: "none" },
        ]}
        w={narrow ? "100%" : "fit-content"}
        orientation={narrow ? "vertical" : "horizontal"}
        aria-label="Trigger"
      />
      <Text size="xs" c="dimmed">
        {HELP[value.type]}
      </Text>
      {value.type === "timer" && (
        <Group align="flex-end" gap="sm">
          <SegmentedControl
            size="xs"
            value={value.timer}
            onChange={(timer) => onChange({ ...value, timer: timer as TriggerDraft["timer"] })}
            data={[
              { label: "Every N seconds", value: "interval" },
              { label: "Cron", value: "cron" },
            ]}
            mb={6}
          />
          {value.timer === "interval" ? (
            <NumberInput label="Interval (seconds)" min={1} value={value.interval} onChange={(interval) => onChange({ ...value, interval })} w={180} error={error} />
          ) : (
            <TextInput
              label="Cron expression (UTC)"
              placeholder="0 * * * *"
              value={value.cron}
              onChange={(e) => onChange({ ...value, cron: e.currentTarget.value })}
              w={240}
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
              error={error}
            />
          )}
        </Group>
      )}
      {value.type !== "timer" && error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
