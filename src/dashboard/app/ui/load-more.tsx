import { Button, Group, Text } from "@mantine/core";
import { PAGE_SIZE, type Paged } from "../hooks/use-paged.ts";

/** Under a paginated list: how many of how many are shown, and "Load more" while there are more. */
export function LoadMore({ list, noun }: { list: Paged<{ id: string }>; noun: string }) {
  const shown = list.data?.length ?? 0;
  if (!list.hasMore && shown <= PAGE_SIZE) return null;
  return (
    <Group justify="center" gap="md" mt="sm" data-testid="load-more">
      <Text size="sm" c="dimmed">
        {shown} of {list.total} {noun}
      </Text>
      {list.hasMore && (
        <Button variant="default" size="xs" onClick={list.loadMore} loading={list.loadingMore}>
          Load more
        </Button>
      )}
    </Group>
  );
}
