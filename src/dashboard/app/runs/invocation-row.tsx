import { memo, useState } from "react";
import { Badge, Group, Paper, Stack, Text, UnstyledButton } from "@mantine/core";
import { ErrorBlock, LogList } from "./log-list.tsx";
import { formatWhen } from "./run-time.ts";
import type { Invocation } from "./invocations.ts";

// One invocation of a source: when, what kind, failed or ok, and its first error or how much it
// logged; opened, its errors with their stacks and its console lines.

const KIND: Record<string, string> = { run: "run", deploy: "deploy hook", activate: "activate hook", deactivate: "deactivate hook" };

export const InvocationRow = memo(function InvocationRow({ inv, fresh }: { inv: Invocation; fresh: boolean }) {
  const [open, setOpen] = useState(false);
  const failed = inv.errors.length > 0;
  const first = inv.errors[0];
  const lines = `${inv.lines.length} log line${inv.lines.length === 1 ? "" : "s"}`;
  return (
    <Paper withBorder p={0} className={fresh ? "event-new" : undefined} data-testid="invocation" data-status={failed ? "failed" : "ok"} data-invocation={inv.id ?? undefined}>
      <UnstyledButton onClick={() => setOpen(!open)} w="100%" px="md" py="xs" aria-expanded={open}>
        <Group gap="sm" wrap="wrap" style={{ rowGap: 4 }}>
          <Group gap="sm" wrap="nowrap">
            <Badge color={failed ? "red" : "green"} variant="light" miw={62} style={{ flexShrink: 0, minWidth: "max-content" }}>
              {failed ? "failed" : "ok"}
            </Badge>
            <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
              {formatWhen(inv.at)}
            </Text>
            {inv.kind && (
              <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                {KIND[inv.kind] ?? inv.kind}
              </Text>
            )}
          </Group>
          <Text size="sm" c={failed ? "red.8" : undefined} truncate="end" style={{ flex: 1, minWidth: 160 }} data-testid="invocation-summary">
            {first ? `${first.name}: ${first.message}` : lines}
          </Text>
          {failed && inv.lines.length > 0 && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
              {lines}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {open ? "▾" : "▸"}
          </Text>
        </Group>
      </UnstyledButton>
      {open && (
        <Stack gap="sm" px="md" pb="sm" pt={4} bg="gray.0" data-testid="invocation-detail">
          {inv.errors.map((e, i) => (
            <ErrorBlock key={i} error={e} />
          ))}
          {inv.lines.length > 0 ? (
            <LogList lines={inv.lines} />
          ) : (
            <Text size="xs" c="dimmed">
              It logged nothing.
            </Text>
          )}
          {inv.id && (
            <Text size="xs" c="dimmed" ff="monospace">
              {inv.id}
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
});
