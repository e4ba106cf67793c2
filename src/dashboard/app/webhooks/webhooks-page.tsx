import { useState, type FormEvent } from "react";
import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { usePaged } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf, messageOf } from "../api-error.ts";
import { href } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { toastFailed } from "../ui/toasts.ts";
import { NewSecret } from "./new-secret.tsx";

export function WebhooksPage() {
  const { api } = useSession();
  const list = usePaged(async (query) => dataOf(await api.GET("/v1/users/me/webhooks", { params: { query } })), [api]);
  const [form, setForm] = useState({ url: "", name: "" });
  const [error, setError] = useState<string>();
  const [rowError, setRowError] = useState<string>();
  const [created, setCreated] = useState<{ name: string; secret: string }>();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const res = await api.POST("/v1/webhooks", { params: { query: { url: form.url.trim(), ...(form.name.trim() ? { name: form.name.trim() } : {}) } } });
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Create webhook", messageOf(res.error));
    if (res.data) {
      const w = res.data.data;
      if (w.secret) setCreated({ name: w.name || w.id, secret: w.secret });
      setForm({ url: "", name: "" });
      await list.reload();
    }
  };
  const remove = async (id: string) => {
    const res = await api.DELETE("/v1/webhooks/{id}", { params: { path: { id } } });
    setRowError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Delete", messageOf(res.error));
    await list.reload();
  };

  return (
    <>
      <PageHeader title="Webhooks" description="URLs that receive events by POST. Subscribe a webhook to a source to have its events delivered." />
      <Stack gap="lg">
        <Paper withBorder p="lg" component="form" onSubmit={create}>
          <Title order={5} mb="sm">
            New webhook
          </Title>
          <Group align="flex-end" wrap="wrap">
            <TextInput label="URL" placeholder="https://example.com/hook" value={form.url} onChange={(e) => setForm({ ...form, url: e.currentTarget.value })} required w={360} />
            <TextInput label="Name" placeholder="optional" value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
            <Button type="submit">Create webhook</Button>
          </Group>
          <ErrorAlert error={error} title="Not created" />
        </Paper>
        {created && <NewSecret name={created.name} secret={created.secret} onDone={() => setCreated(undefined)} />}
        <ErrorAlert error={list.error ?? rowError} />
        {list.data?.length === 0 && <EmptyState title="No webhooks yet" text="Create one above with the URL that should receive events, then subscribe it to a source under Subscriptions." />}
        {list.data && list.data.length > 0 && (
          <Paper withBorder>
            <Table.ScrollContainer minWidth={640} type="native">
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>URL</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.map((w) => (
                    <Table.Tr key={w.id}>
                      <Table.Td>
                        <Anchor href={href("webhooks", w.id)} fw={500}>
                          {w.name || w.id}
                        </Anchor>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {w.id}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: "anywhere" }}>
                        <Text size="sm" ff="monospace">
                          {w.url}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={w.active ? "green" : "gray"} variant="light">
                          {w.active ? "active" : "inactive"}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="xs" variant="light" component="a" href={href("webhooks", w.id)}>
                            Deliveries
                          </Button>
                          <ConfirmButton label="Delete" title={`Delete ${w.name || w.id}?`} text="Its subscriptions end and its deliveries are no longer tried." onConfirm={() => remove(w.id)} />
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
        <LoadMore list={list} noun="webhooks" />
      </Stack>
    </>
  );
}
