import { useState, type FormEvent } from "react";
import { Button, Group, Paper, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useSession } from "./session-context.ts";
import { usePaged } from "./use-paged.ts";
import { LoadMore } from "./load-more.tsx";
import { dataOf, messageOf } from "./api-error.ts";
import { toastFailed } from "./toasts.ts";
import { PageHeader } from "./page-header.tsx";
import { ErrorAlert } from "./error-alert.tsx";
import { EmptyState } from "./empty-state.tsx";
import { ConfirmButton } from "./confirm-button.tsx";

// Connected accounts (apn_…): an app's credentials, sealed at rest and never shown again, that
// components' app props use.

export function AccountsPage() {
  const { api } = useSession();
  const list = usePaged(async (query) => dataOf(await api.GET("/v1/users/me/accounts", { params: { query } })), [api]);
  const [form, setForm] = useState({ app: "", name: "", auth: '{\n  "oauth_access_token": ""\n}' });
  const [error, setError] = useState<string>();
  const [rowError, setRowError] = useState<string>();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    let auth: unknown;
    try {
      auth = JSON.parse(form.auth);
    } catch {
      return setError("Credentials must be a JSON object");
    }
    const res = await api.POST("/v1/accounts", { body: { app: form.app.trim(), auth, ...(form.name.trim() ? { name: form.name.trim() } : {}) } });
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Connect account", messageOf(res.error));
    if (res.data) {
      setForm({ ...form, app: "", name: "" });
      await list.reload();
    }
  };
  const remove = async (id: string) => {
    const res = await api.DELETE("/v1/accounts/{id}", { params: { path: { id } } });
    setRowError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Delete account", messageOf(res.error));
    await list.reload();
  };

  return (
    <>
      <PageHeader title="Accounts" description="Credentials of the apps your components use (app props). Stored encrypted; never shown again." />
      <Stack gap="lg">
        <Paper withBorder p="lg" component="form" onSubmit={create}>
          <Title order={5} mb="sm">
            Connect an account
          </Title>
          <Stack gap="sm" maw={560}>
            <Group grow>
              <TextInput label="App" placeholder="github" value={form.app} onChange={(e) => setForm({ ...form, app: e.currentTarget.value })} required />
              <TextInput label="Name" placeholder="optional" value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
            </Group>
            <Textarea label="Credentials (JSON)" autosize minRows={3} value={form.auth} onChange={(e) => setForm({ ...form, auth: e.currentTarget.value })} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
            <ErrorAlert error={error} title="Not connected" />
            <Group>
              <Button type="submit">Connect</Button>
            </Group>
          </Stack>
        </Paper>
        <ErrorAlert error={list.error ?? rowError} />
        {list.data?.length === 0 && <EmptyState title="No accounts yet" text="Connect one above; a component with an app prop can then be deployed with it." />}
        {list.data && list.data.length > 0 && (
          <Paper withBorder>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>App</Table.Th>
                  <Table.Th>Fields</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {a.name}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {a.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{a.app}</Table.Td>
                    <Table.Td>
                      <Text size="xs" ff="monospace">
                        {a.auth_fields.join(", ")}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <ConfirmButton label="Delete" title={`Delete ${a.name}?`} text="Its credentials are deleted; sources that use this account lose access to the app." onConfirm={() => remove(a.id)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        <LoadMore list={list} noun="accounts" />
      </Stack>
    </>
  );
}
