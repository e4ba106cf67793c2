import { Box, Code, Group, Stack, Text } from "@mantine/core";
import { formatClock } from "./run-time.ts";
import type { ErrorInfo, LogLine } from "./run-types.ts";

// Console lines and errors, as steps and source invocations show them.

const LEVEL_COLOR: Record<string, string> = { error: "red.7", warn: "orange.7", info: "blue.7", debug: "gray.6", log: "dark.4" };

export function LogList({ lines }: { lines: LogLine[] }) {
  return (
    <Stack gap={0} data-testid="log-lines" style={{ fontFamily: "var(--mantine-font-family-monospace)" }}>
      {lines.map((l, i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-start" py={1} data-testid="log-line" data-level={l.level}>
          <Text span size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: "nowrap" }}>
            {l.ts === null ? "" : formatClock(l.ts)}
          </Text>
          <Text span size="xs" ff="monospace" fw={600} c={LEVEL_COLOR[l.level] ?? "dark.4"} w={42} style={{ flexShrink: 0 }}>
            {l.level}
          </Text>
          <Text span size="xs" ff="monospace" c={l.level === "error" ? "red.8" : undefined} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", minWidth: 0 }}>
            {l.msg}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

export function ErrorBlock({ error }: { error: ErrorInfo }) {
  return (
    <Box data-testid="error-block">
      <Text size="sm" c="red.8" fw={600} style={{ overflowWrap: "anywhere" }}>
        {error.name}: {error.message}
      </Text>
      {error.stack && (
        <Code block mt={4} c="red.9" bg="red.0" style={{ whiteSpace: "pre", overflowX: "auto", maxHeight: 320 }} data-testid="error-stack">
          {error.stack}
        </Code>
      )}
    </Box>
  );
}
