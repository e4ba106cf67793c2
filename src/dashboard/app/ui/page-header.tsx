import type { ReactNode } from "react";
import { Group, Stack, Text, Title } from "@mantine/core";

export function PageHeader({ title, description, children }: { title: ReactNode; description?: ReactNode; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Title order={2} style={{ overflowWrap: "anywhere" }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" component="div">
            {description}
          </Text>
        )}
      </Stack>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
