import { Anchor, Badge, Button, Paper, Table, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { usePaged } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf } from "../api-error.ts";
import { href } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { triggerText } from "./trigger-text.ts";
import { useErrorSummaries } from "../hooks/use-error-summaries.ts";
import { WorkflowFailureBadge } from "./workflow-failure-badge.tsx";

export function WorkflowsPage() {
  const { api } = useSession();
  const list = usePaged(async (query) => dataOf(await api.GET("/v1/users/me/workflows", { params: { query } })), [api]);
  const failures = useErrorSummaries((list.data ?? []).map((w) => w.id));
  return (
    <>
      <PageHeader title="Workflows" description="Steps of code run in order on each trigger: an HTTP request, a schedule, or the events of sources they subscribe to.">
        <Button component="a" href={href("workflows", "new")}>
          New workflow
        </Button>
      </PageHeader>
      <ErrorAlert error={list.error} title="Could not list the workflows" />
      {list.data?.length === 0 && (
        <EmptyState
          title="No workflows yet"
          text="A workflow runs steps of code in order when its trigger fires: an HTTP request, a schedule, or the events it subscribes to. Create one, then watch its runs here."
          action={{ label: "New workflow", href: href("workflows", "new") }}
        />
      )}
      {list.data && list.data.length > 0 && (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640} type="native">
            <Table highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Trigger</Table.Th>
                  <Table.Th>Steps</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((w) => (
                  <Table.Tr key={w.id}>
                    <Table.Td>
                      <Anchor href={href("workflows", w.id)} fw={500}>
                        {w.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {w.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{triggerText(w.trigger)}</Text>
                    </Table.Td>
                    <Table.Td>{w.steps.map((s) => s.name).join(" → ")}</Table.Td>
                    <Table.Td>
                      <Badge color={w.active ? "green" : "gray"} variant="light" style={{ flexShrink: 0 }}>
                        {w.active ? "enabled" : "disabled"}
                      </Badge>
                      <WorkflowFailureBadge workflowId={w.id} summary={failures.get(w.id)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <LoadMore list={list} noun="workflows" />
    </>
  );
}
