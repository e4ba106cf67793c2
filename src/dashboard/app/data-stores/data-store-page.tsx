import { Anchor, Group, Skeleton, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href, navigate } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { CopyValue } from "../ui/copy-value.tsx";
import { formatSeconds } from "../time-format.ts";
import { RenameStore } from "./rename-store.tsx";
import { DeleteStore } from "./delete-store.tsx";
import { Records } from "./records.tsx";

export function DataStorePage({ id }: { id: string }) {
  const { api } = useSession();
  const store = useQuery(async () => dataOf(await api.GET("/v1/data_stores/{id}", { params: { path: { id } } })).data, [api, id]);

  if (store.error) {
    // another user's store reads exactly like a missing one
    if (store.error instanceof ApiError && isNotFound(store.error.body))
      return <EmptyState title="Data store not found" text={`There is no data store ${id} among yours.`} action={{ label: "Back to data stores", href: href("data-stores") }} />;
    return <ErrorAlert error={store.error} title="Could not read the data store" />;
  }
  const s = store.data;
  if (!s) return <Skeleton h={200} />;
  return (
    <>
      <Anchor href={href("data-stores")} size="sm" mb="xs" display="inline-block">
        ← Data stores
      </Anchor>
      <PageHeader
        title={s.name}
        description={
          <Stack gap={2} data-testid="store-summary">
            <Group gap={6} wrap="nowrap">
              <Text span size="sm" ff="monospace" data-testid="store-id">
                {s.id}
              </Text>
              <CopyValue value={s.id} label="Copy the id" />
            </Group>
            <Text size="sm" c="dimmed">
              {s.keys === 1 ? "1 record" : `${s.keys.toLocaleString()} records`} · created {formatSeconds(s.created_at)}
            </Text>
          </Stack>
        }
      >
        <Group gap="xs" data-testid="store-actions">
          <RenameStore size="sm" store={s} onRenamed={store.reload} />
          <DeleteStore size="sm" store={s} onDeleted={() => navigate("data-stores")} />
        </Group>
      </PageHeader>
      <Records store={s} onChanged={store.reload} />
    </>
  );
}
