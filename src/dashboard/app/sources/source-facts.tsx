import { Group, Text } from "@mantine/core";
import { useComponentNames } from "./component-names.ts";

// Under a source's name: what it runs (its component) and when (a timer's schedule), so its page
// answers "what is this and when does it run" without opening its props.

/** A timer prop's schedule in words, or undefined for a source with no timer. */
export function scheduleOf(configured: Record<string, unknown>): string | undefined {
  for (const v of Object.values(configured)) {
    if (!v || typeof v !== "object") continue;
    const t = v as { intervalSeconds?: unknown; cron?: unknown };
    if (typeof t.cron === "string") return `on the cron schedule ${t.cron} (UTC)`;
    if (typeof t.intervalSeconds === "number") return `every ${everyText(t.intervalSeconds)}`;
  }
  return undefined;
}

function everyText(s: number): string {
  if (s % 86_400 === 0) return s === 86_400 ? "day" : `${s / 86_400} days`;
  if (s % 3600 === 0) return s === 3600 ? "hour" : `${s / 3600} hours`;
  if (s % 60 === 0) return s === 60 ? "minute" : `${s / 60} minutes`;
  return s === 1 ? "second" : `${s} seconds`;
}

export function SourceFacts({ componentId, configured }: { componentId: string; configured: Record<string, unknown> }) {
  const names = useComponentNames();
  const schedule = scheduleOf(configured);
  return (
    <Group gap="lg" mb="md" wrap="wrap" data-testid="source-facts">
      <Text size="sm">
        <Text span c="dimmed">
          Component{" "}
        </Text>
        <Text span fw={500} title={componentId}>
          {names.get(componentId) ?? componentId}
        </Text>
      </Text>
      {schedule && (
        <Text size="sm">
          <Text span c="dimmed">
            Runs{" "}
          </Text>
          {schedule}
        </Text>
      )}
    </Group>
  );
}
