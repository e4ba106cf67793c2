import { useState, type FormEvent } from "react";
import { Button, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useSession } from "./session-context.ts";
import { useQuery } from "./use-query.ts";
import { dataOf, messageOf } from "./api-error.ts";
import { PageHeader } from "./page-header.tsx";
import { ErrorAlert } from "./error-alert.tsx";
import { EmptyState } from "./empty-state.tsx";
import { ConfirmButton } from "./confirm-button.tsx";

// Subscriptions route an emitter's events (a stream of it) to a listener: a source, a workflow
// or a webhook. Auto-subscriptions subscribe a listener to every emitter created later.

export function SubscriptionsPage() {
  const { api } = useSession();
  const subs = useQuery(async () => dataOf(await api.GET("/v1/users/me/subscriptions")).data, [api]);
  const autos = useQuery(async () => dataOf(await api.GET("/v1/users/me/auto_subscriptions")).data, [api]);
  const [form, setForm] = useState({ emitter_id: "", listener_id: "", event_name: "" });
  const [error, setError] = useState<string>();
  const [rowError, setRowError] = useState<string>();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const query = { emitter_id: form.emitter_id.trim(), listener_id: form.listener_id.trim(), ...(form.event_name.trim() ? { event_name: form.event_name.trim() } : {}) };
    const res = await api.POST("/v1/subscriptions", { params: { query } });
    setError(res.data ? undefined : messageOf(res.error));
    if (res.data) {
      setForm({ emitter_id: "", listener_id: "", event_name: "" });
      await subs.reload();
    }
  };
  const remove = async (s: { emitter_id: string; listener_id: string; event_name: string }) => {
    const res = await api.DELETE("/v1/subscriptions", { params: { query: s } });
    setRowError(res.data ? undefined : messageOf(res.error));
    await subs.reload();
  };
  const removeAuto = async (id: string) => {
    const res = await api.DELETE("/v1/auto_subscriptions/{id}", { params: { path: { id } } });
    setRowError(res.data ? undefined : messageOf(res.error));
    await autos.reload();
  };

  return (
    <>
      <PageHeader title="Subscriptions" description="Route the events of a source or workflow to a listener: another source, a workflow, or a webhook." />
      <Stack gap="lg">
        <Paper withBorder p="lg" component="form" onSubmit={create}>
          <Title order={5} mb="sm">
            New subscription
          </Title>
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Emitter id" placeholder="dc_… or p_…" value={form.emitter_id} onChange={(e) => setForm({ ...form, emitter_id: e.currentTarget.value })} required />
            <TextInput label="Listener id" placeholder="dc_…, p_… or wh_…" value={form.listener_id} onChange={(e) => setForm({ ...form, listener_id: e.currentTarget.value })} required />
            <TextInput label="Stream" placeholder="default" value={form.event_name} onChange={(e) => setForm({ ...form, event_name: e.currentTarget.value })} />
            <Button type="submit">Subscribe</Button>
          </Group>
          <ErrorAlert error={error} title="Not subscribed" />
        </Paper>
        <ErrorAlert error={subs.error ?? autos.error ?? rowError} />
        {subs.data?.length === 0 && <EmptyState title="No subscriptions yet" text="Subscribe a listener to an emitter above: its events will then be delivered to the listener as they are emitted." />}
        {subs.data && subs.data.length > 0 && (
          <Paper withBorder>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Emitter</Table.Th>
                  <Table.Th>Stream</Table.Th>
                  <Table.Th>Listener</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {subs.data.map((s) => (
                  <Table.Tr key={s.id} data-testid="subscription">
                    <Table.Td ff="monospace">{s.emitter_id}</Table.Td>
                    <Table.Td>{s.event_name || "default"}</Table.Td>
                    <Table.Td ff="monospace">{s.listener_id}</Table.Td>
                    <Table.Td ta="right">
                      <ConfirmButton
                        label="Delete"
                        title="Delete this subscription?"
                        text={`Events of ${s.emitter_id} (${s.event_name || "default"} stream) will no longer be delivered to ${s.listener_id}.`}
                        onConfirm={() => remove(s)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        <div>
          <Title order={4} mb={4}>
            Auto-subscriptions
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            A listener auto-subscribed to a stream gets the events of every source you create from then on (POST /v1/auto_subscriptions).
          </Text>
          {autos.data?.length === 0 && <Text size="sm">None.</Text>}
          {autos.data && autos.data.length > 0 && (
            <Paper withBorder>
              <Table verticalSpacing="xs">
                <Table.Tbody>
                  {autos.data.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td ff="monospace">{a.listener_id}</Table.Td>
                      <Table.Td>{a.event_name || "default"}</Table.Td>
                      <Table.Td ta="right">
                        <ConfirmButton
                          label="Delete"
                          title="Delete this auto-subscription?"
                          text={`Sources and workflows you create from now on won't be subscribed to ${a.listener_id}. The subscriptions it already made stay.`}
                          onConfirm={() => removeAuto(a.id)}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Paper>
          )}
        </div>
      </Stack>
    </>
  );
}
