import { useState } from "react";
import { Group, Skeleton, Stack, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useSession } from "../session-context.ts";
import { usePaged } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf } from "../api-error.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import type { DataStore } from "./data-store.ts";
import { RecordsTable } from "./records-table.tsx";
import { RecordModal } from "./record-modal.tsx";

// The API pages records by key (forward only) and filters them by a key prefix: that is the
// search. A key is unique in its store, so it is the id the paged list goes by.

const PREFIX_DEBOUNCE_MS = 250;

export function Records({ store, onChanged }: { store: DataStore; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const [prefix, setPrefix] = useState("");
  const [wanted] = useDebouncedValue(prefix, PREFIX_DEBOUNCE_MS);
  const list = usePaged(async (q) => {
    const query = { ...q, ...(wanted ? { prefix: wanted } : {}) };
    const page = dataOf(await api.GET("/v1/data_stores/{id}/records", { params: { path: { id: store.id }, query } }));
    return { ...page, data: page.data.map((r) => ({ ...r, id: r.key })) };
  }, [api, store.id, wanted]);
  // a record added or deleted changes the store's count too
  const changed = async () => {
    await Promise.all([list.reload(), onChanged()]);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={4}>Records</Title>
        <Group gap="sm" wrap="wrap">
          <TextInput
            aria-label="Key prefix"
            placeholder="Keys starting with…"
            value={prefix}
            onChange={(e) => setPrefix(e.currentTarget.value)}
            spellCheck={false}
            autoComplete="off"
            w={240}
            data-testid="prefix"
          />
          <RecordModal storeId={store.id} onSaved={changed} />
        </Group>
      </Group>
      <ErrorAlert error={list.error} title="Could not read the records" />
      {list.loading && !list.data && <Skeleton h={160} />}
      {list.data?.length === 0 &&
        (wanted ? (
          <EmptyState title="No matching keys" text={`No key of ${store.name} starts with “${wanted}”.`} action={{ label: "Show all records", onClick: () => setPrefix("") }} />
        ) : (
          <EmptyState title="No records yet" text="Add one here, or let a source or step with a data_store prop configured with this store's id write some." />
        ))}
      {list.data && list.data.length > 0 && <RecordsTable storeId={store.id} records={list.data} onChanged={changed} />}
      <LoadMore list={list} noun={wanted ? "matching records" : "records"} />
    </Stack>
  );
}
