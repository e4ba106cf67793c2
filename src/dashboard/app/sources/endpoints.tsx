import { Code, Group, Paper, Text } from "@mantine/core";
import { CopyValue } from "../ui/copy-value.tsx";

/** The HTTP endpoints of a source's $.interface.http props: where to send it requests. */
export function Endpoints({ configured }: { configured: Record<string, unknown> }) {
  const urls = Object.entries(configured).flatMap(([name, v]) => {
    const url = (v as { endpoint_url?: unknown } | null)?.endpoint_url;
    return typeof url === "string" ? [[name, url] as const] : [];
  });
  if (urls.length === 0) return null;
  return (
    <Paper withBorder p="sm" mb="md">
      {urls.map(([name, url]) => (
        <Group key={name} gap="xs" wrap="nowrap">
          <Text size="sm" fw={500}>
            Endpoint
          </Text>
          <Code data-testid="endpoint-url" style={{ overflowWrap: "anywhere" }}>
            {url}
          </Code>
          <CopyValue value={url} label="Copy the endpoint URL" />
        </Group>
      ))}
    </Paper>
  );
}
