import { useState } from "react";
import { Anchor, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { dataOf, messageOf } from "../api-error.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { href } from "../router.ts";
import { toastFailed } from "../ui/toasts.ts";
import { SubscriptionForm } from "./subscription-form.tsx";
import { useNamedIds, type Named } from "./use-named-ids.ts";

/** An emitter or listener as its name (a link to its page) over its id; an id alone when unknown. */
function NamedId({ id, named }: { id: string; named: Named | undefined }) {
  return (
    <>
      {named && (
        <Anchor href={href(`${named.kind}s`, id)} size="sm" fw={500} display="block">
          {named.name}
        </Anchor>
      )}
      <Text size="xs" c="dimmed" ff="monospace">
        {id}
      </Text>
    </>
  );
}

// Subscriptions route an emitter's events (a stream of it) to a listener: a source, a workflow
// or a webhook. Auto-subscriptions subscribe a listener to every emitter created later.

export function SubscriptionsPage() {
  const { api } = useSession();
  const subs = useQuery(async () => dataOf(await api.GET("/v1/users/me/subscriptions")).data, [api]);
  const autos = useQuery(async () => dataOf(await api.GET("/v1/users/me/auto_subscriptions")).data, [api]);
  const [rowError, setRowError] = useState<string>();
  const named = useNamedIds();
  const nameOf = (id: string) => <NamedId id={id} named={named.byId.get(id)} />;

  const remove = async (s: { emitter_id: string; listener_id: string; event_name: string }) => {
    const res = await api.DELETE("/v1/subscriptions", { params: { query: s } });
    setRowError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Delete", messageOf(res.error));
    await subs.reload();
  };
  const removeAuto = async (id: string) => {
    const res = await api.DELETE("/v1/auto_subscriptions/{id}", { params: { path: { id } } });
    setRowError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Delete", messageOf(res.error));
    await autos.reload();
  };

  return (
    <>
      <PageHeader title="Subscriptions" description="Route the events of a source or workflow to a listener: another source, a workflow, or a webhook." />
      <Stack gap="lg">
        <SubscriptionForm named={named.all} onCreated={subs.reload} />
        <ErrorAlert error={subs.error ?? autos.error ?? rowError} />
        {subs.data?.length === 0 && <EmptyState title="No subscriptions yet" text="Subscribe a listener to an emitter above: its events will then be delivered to the listener as they are emitted." />}
        {subs.data && subs.data.length > 0 && (
          <Paper withBorder>
            <Table.ScrollContainer minWidth={560} type="native">
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
                      <Table.Td>{nameOf(s.emitter_id)}</Table.Td>
                      <Table.Td>{s.event_name || "default"}</Table.Td>
                      <Table.Td>{nameOf(s.listener_id)}</Table.Td>
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
            </Table.ScrollContainer>
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
                      <Table.Td>{nameOf(a.listener_id)}</Table.Td>
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
