import { Code, Paper, Skeleton, Stack, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { usePaged } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf } from "../api-error.ts";
import { toastDone } from "../ui/toasts.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { StoreNameForm } from "./store-name-form.tsx";
import { StoresTable } from "./stores-table.tsx";

export function DataStoresPage() {
  const { api } = useSession();
  const list = usePaged(async (query) => dataOf(await api.GET("/v1/users/me/data_stores", { params: { query } })), [api]);
  const create = (name: string) => api.POST("/v1/data_stores", { body: { name } });
  const created = async (name: string) => {
    toastDone(`${name} created`);
    await list.reload();
  };

  return (
    <>
      <PageHeader
        title="Data stores"
        description={
          <>
            Key-value stores of JSON values, kept by the service. Give one to a source or a step through a <Code>data_store</Code> prop, configured with its id.
          </>
        }
      />
      <Stack gap="lg">
        <Paper withBorder p="lg" data-testid="create-store">
          <Title order={5} mb="sm">
            New data store
          </Title>
          <StoreNameForm submit={create} label="Create data store" onDone={created} />
        </Paper>
        <ErrorAlert error={list.error} title="Could not read your data stores" />
        {list.loading && !list.data && <Skeleton h={120} />}
        {list.data?.length === 0 && <EmptyState title="No data stores yet" text="Create one above, then configure a data_store prop with its id to read and write it from your sources and steps." />}
        {list.data && list.data.length > 0 && <StoresTable stores={list.data} onChanged={list.reload} />}
        <LoadMore list={list} noun="data stores" />
      </Stack>
    </>
  );
}
