import { useState, type FormEvent } from "react";
import { Alert, Badge, Button, Code, Group, Paper, Stack, Switch, Table, Text, TextInput, Title } from "@mantine/core";
import { useSession } from "./session-context.ts";
import { emptyPage, usePaged } from "./hooks/use-paged.ts";
import { LoadMore } from "./ui/load-more.tsx";
import { dataOf, messageOf } from "./api-error.ts";
import { toastFailed } from "./ui/toasts.ts";
import { formatSeconds } from "./time-format.ts";
import { PageHeader } from "./ui/page-header.tsx";
import { ErrorAlert } from "./ui/error-alert.tsx";
import { EmptyState } from "./ui/empty-state.tsx";
import { ConfirmButton } from "./ui/confirm-button.tsx";

export function UsersPage() {
  const { api, me } = useSession();
  const list = usePaged(async (query) => (me.admin ? dataOf(await api.GET("/v1/users", { params: { query } })) : emptyPage<never>()), [api, me.admin]);
  const [form, setForm] = useState({ username: "", email: "", admin: false });
  const [error, setError] = useState<string>();
  const [rowError, setRowError] = useState<string>();
  const [created, setCreated] = useState<{ username: string; key: string }>();

  if (!me.admin) return <EmptyState title="Admins only" text="Only an admin can list and create users. Ask one for an account or a new key." />;

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const res = await api.POST("/v1/users", { body: { username: form.username.trim(), email: form.email.trim(), admin: form.admin } });
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Create user", messageOf(res.error));
    if (res.data) {
      setCreated({ username: res.data.data.username, key: res.data.data.api_key });
      setForm({ username: "", email: "", admin: false });
      await list.reload();
    }
  };
  const remove = async (id: string) => {
    const res = await api.DELETE("/v1/users/{id}", { params: { path: { id } } });
    setRowError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Delete user", messageOf(res.error));
    await list.reload();
  };

  return (
    <>
      <PageHeader title="Users" description="Everyone with a key to this service. A new user's key is shown once, when it is created." />
      <Stack gap="lg">
        <Paper withBorder p="lg" component="form" onSubmit={create}>
          <Title order={5} mb="sm">
            New user
          </Title>
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Username" value={form.username} onChange={(e) => setForm({ ...form, username: e.currentTarget.value })} required />
            <TextInput label="Email" type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.currentTarget.value })} required />
            <Switch label="Admin" checked={form.admin} onChange={(e) => setForm({ ...form, admin: e.currentTarget.checked })} mb={8} />
            <Button type="submit">Create user</Button>
          </Group>
          <ErrorAlert error={error} title="Not created" />
        </Paper>
        {created && (
          <Alert color="green" title={`${created.username} created`} withCloseButton onClose={() => setCreated(undefined)} data-testid="new-key">
            <Text size="sm">Their API key, shown only now: copy it and hand it over safely.</Text>
            <Code block mt="xs">
              {created.key}
            </Code>
          </Alert>
        )}
        <ErrorAlert error={list.error ?? rowError} />
        {list.data && list.data.length > 0 && (
          <Paper withBorder>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>User</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((u) => (
                  <Table.Tr key={u.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {u.username}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {u.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{u.email}</Table.Td>
                    <Table.Td>{u.admin ? <Badge variant="light">admin</Badge> : "user"}</Table.Td>
                    <Table.Td>{formatSeconds(u.created_at)}</Table.Td>
                    <Table.Td ta="right">
                      {u.id !== me.id && (
                        <ConfirmButton label="Delete" title={`Delete ${u.username}?`} text="Their key stops working, and their sources, workflows and webhooks are deleted." onConfirm={() => remove(u.id)} />
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        <LoadMore list={list} noun="users" />
      </Stack>
    </>
  );
}
