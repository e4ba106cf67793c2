import { Button, Paper, Stack, Text, Title } from "@mantine/core";

/** What a page shows when it has nothing yet: what this is, and what to do next. */
export function EmptyState({ title, text, action }: { title: string; text: string; action?: { label: string; href?: string; onClick?: () => void } }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid="empty-state">
      <Stack align="center" gap="xs" py="lg">
        <Title order={4}>{title}</Title>
        <Text c="dimmed" ta="center" maw={520}>
          {text}
        </Text>
        {action?.href !== undefined && (
          <Button mt="sm" component="a" href={action.href} onClick={action.onClick}>
            {action.label}
          </Button>
        )}
        {action && action.href === undefined && (
          <Button mt="sm" onClick={action.onClick}>
            {action.label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
