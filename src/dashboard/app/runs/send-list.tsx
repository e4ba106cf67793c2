import { Group, Paper, Stack, Text } from "@mantine/core";
import { StatusBadge } from "./run-status-badge.tsx";
import { formatWhen, relative } from "./run-time.ts";
import type { RunSend } from "./run-types.ts";

/** What a step queued with $.send.http / $.send.email, and how sending it went. */
export function SendList({ sends, now }: { sends: RunSend[]; now: number }) {
  return (
    <Stack gap={6} data-testid="sends">
      {sends.map((s) => (
        <Paper key={s.id} withBorder p="xs" bg="gray.0" data-testid="send" data-status={s.status}>
          <Group gap="xs" wrap="wrap">
            <StatusBadge status={s.status} size="xs" waiting />
            <Text size="xs" fw={600} tt="uppercase">
              {s.kind}
            </Text>
            <Text size="sm" ff="monospace" style={{ overflowWrap: "anywhere", minWidth: 0, flex: 1 }}>
              {s.kind === "http" ? `${s.method ?? ""} ${s.url ?? ""}` : (s.subject ?? "")}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            {s.attempts} attempt{s.attempts === 1 ? "" : "s"}
            {s.last_status !== null && ` · last status ${s.last_status}`}
            {s.next_at_ms !== null && ` · next try ${relative(s.next_at_ms, now)}`}
            {s.done_at_ms !== null && ` · ${s.status === "sent" ? "sent" : "gave up"} ${formatWhen(s.done_at_ms)}`}
          </Text>
          {s.last_error && (
            <Text size="xs" c="red.8" mt={2} style={{ overflowWrap: "anywhere" }}>
              {s.last_error}
            </Text>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
