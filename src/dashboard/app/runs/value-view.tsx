import { Button, Code, Group, Stack, Text } from "@mantine/core";
import { JsonView } from "../ui/json-view.tsx";
import { isTruncated } from "./run-types.ts";

/**
 * A JSON value of a run; one the API cut short shows the start of its text, and "Show all" asks
 * for the run again with the values whole (`expand`).
 */
export function ValueView({ value, onShowAll, loading, openDepth = 2 }: { value: unknown; onShowAll: () => void; loading: boolean; openDepth?: number }) {
  if (!isTruncated(value)) return <JsonView value={value} openDepth={openDepth} />;
  return (
    <Stack gap={4} data-testid="truncated">
      <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxHeight: 200, overflow: "auto" }}>
        {value.preview}…
      </Code>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          {value.bytes.toLocaleString()} bytes of JSON, the first {value.preview.length.toLocaleString()} characters shown
        </Text>
        <Button size="compact-xs" variant="light" onClick={onShowAll} loading={loading}>
          Show all
        </Button>
      </Group>
    </Stack>
  );
}
