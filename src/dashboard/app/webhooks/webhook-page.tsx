import { useEffect } from "react";
import { formatWhen } from "../time-format.ts";
import { Badge, Button, Code, Paper, Skeleton, Table, Text, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";

const STATUS_COLOR = { pending: "yellow", delivered: "green", failed: "red" } as const;
const when = (ms: number | null) => (ms ? formatWhen(ms) : "—");
// deliveries change while some are pending (retries): the table refreshes itself meanwhile
const REFRESH_MS = 3000;

export function WebhookPage({ id }: { id: string }) {
  const { api } = useSession();
  const hook = useQuery(async () => dataOf(await api.GET("/v1/webhooks/{id}", { params: { path: { id } } })).data, [api, id]);
  const deliveries = useQuery(async () => dataOf(await api.GET("/v1/webhooks/{id}/deliveries", { params: { path: { id }, query: { limit: 100 } } })).data, [api, id]);
  const pending = deliveries.data?.some((d) => d.status === "pending") ?? false;
  const { reload } = deliveries;
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(t);
  }, [pending, reload]);

  if (hook.error) {
    if (hook.error instanceof ApiError && isNotFound(hook.error.body))
      return <EmptyState title="Webhook not found" text={`There is no webhook ${id} among yours.`} action={{ label: "Back to webhooks", href: href("webhooks") }} />;
    return <ErrorAlert error={hook.error} title="Could not read the webhook" />;
  }
  const w = hook.data;
  if (!w) return <Skeleton h={200} />;
  return (
    <>
      <PageHeader title={w.name || w.id} description={<Code>{w.url}</Code>}>
        <Button variant="default" onClick={() => void reload()}>
          Refresh
        </Button>
      </PageHeader>
      <Title order={4} mb="sm">
        Deliveries
      </Title>
      <ErrorAlert error={deliveries.error} title="Could not read the deliveries" />
      {deliveries.data?.length === 0 && <EmptyState title="No deliveries yet" text="Subscribe this webhook to a source (Subscriptions): each of its new events is then POSTed here, and each try is listed." />}
      {deliveries.data && deliveries.data.length > 0 && (
        <Paper withBorder style={{ overflowX: "auto" }}>
          <Table verticalSpacing="sm" data-testid="deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Status</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last status</Table.Th>
                <Table.Th>Last error</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Next try / delivered</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data.map((d) => (
                <Table.Tr key={d.id} data-status={d.status}>
                  <Table.Td style={{ minWidth: 110 }}>
                    <Badge color={STATUS_COLOR[d.status]} variant="light">
                      {d.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace">
                      {d.event_id}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      from {d.emitter_id}
                    </Text>
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{d.last_status_code || "—"}</Table.Td>
                  <Table.Td maw={320}>
                    <Text size="sm" c={d.last_error ? "red" : "dimmed"} style={{ overflowWrap: "anywhere" }}>
                      {d.last_error || "—"}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{when(d.created_at_ms)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{d.status === "delivered" ? when(d.delivered_at_ms) : d.status === "pending" ? when(d.next_attempt_at_ms) : "gave up"}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </>
  );
}
