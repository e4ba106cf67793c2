import { Group, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import type { FormValue, TimerValue } from "./prop-types.ts";

/** A `$.interface.timer` prop: every N seconds, or a cron expression (its value: TimerValue as JSON). */
export function TimerInput({ value, onChange, ...common }: { value: string; onChange: (v: FormValue) => void; label: string; description: string; error?: string }) {
  const t: TimerValue = value ? (JSON.parse(value) as TimerValue) : { mode: "interval", seconds: "60", cron: "" };
  const set = (patch: Partial<TimerValue>) => onChange(JSON.stringify({ ...t, ...patch }));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {common.label}
      </Text>
      {common.description && <Text size="xs" c="dimmed">{common.description}</Text>}
      <Group gap="sm" align="flex-start">
        <SegmentedControl size="xs" value={t.mode} onChange={(m) => set({ mode: m as TimerValue["mode"] })} data={[{ label: "Every N seconds", value: "interval" }, { label: "Cron (UTC)", value: "cron" }]} />
        {t.mode === "interval" ? (
          <TextInput size="xs" type="number" min={1} value={t.seconds} onChange={(e) => set({ seconds: e.currentTarget.value })} aria-label="seconds" rightSection={<Text size="xs">s</Text>} w={140} />
        ) : (
          <TextInput size="xs" value={t.cron} onChange={(e) => set({ cron: e.currentTarget.value })} placeholder="*/5 * * * *" aria-label="cron" w={180} ff="monospace" />
        )}
      </Group>
      {common.error && <Text size="xs" c="red">{common.error}</Text>}
    </Stack>
  );
}
