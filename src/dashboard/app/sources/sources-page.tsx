import { Anchor, Badge, Button, Paper, Table, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { usePaged } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf } from "../api-error.ts";
import { href } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { LastEvent } from "./last-event.tsx";
import { useComponentNames } from "./component-names.ts";
import { RowActions } from "./row-actions.tsx";
import { useErrorSummaries } from "../hooks/use-error-summaries.ts";
import { FailureBadge } from "../ui/failure-badge.tsx";

export function SourcesPage() {
  const { api } = useSession();
  const sources = usePaged(async (query) => dataOf(await api.GET("/v1/users/me/sources/", { params: { query } })), [api]);
  const names = useComponentNames();
  const failures = useErrorSummaries((sources.data ?? []).map((s) => s.id));

  return (
    <>
      <PageHeader title="Sources" description="Components you deployed: they poll on a timer or receive HTTP requests, and emit events.">
        <Button component="a" href={href("deploy")}>
          Deploy a component
        </Button>
      </PageHeader>
      <ErrorAlert error={sources.error} title="Could not list the sources" />
      {sources.data?.length === 0 && (
        <EmptyState
          title="No sources yet"
          text="Deploy one from the registry (a schedule, an HTTP endpoint, an RSS feed) or paste your own component's code."
          action={{ label: "Deploy from the registry", href: href("deploy") }}
        />
      )}
      {sources.data && sources.data.length > 0 && (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={720} type="native">
            <Table highlightOnHover verticalSpacing="sm" data-testid="sources-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Component</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Last event</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sources.data.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>
                      <Anchor href={href("sources", s.id)} fw={500}>
                        {s.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {s.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{names.get(s.component_id) ?? s.component_id}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={s.active ? "green" : "gray"} variant="light" style={{ flexShrink: 0 }}>
                        {s.active ? "enabled" : "disabled"}
                      </Badge>
                      <FailureBadge summary={failures.get(s.id)} errorsHref={href("sources", s.id, "errors")} />
                    </Table.Td>
                    <Table.Td>
                      <LastEvent id={s.id} />
                    </Table.Td>
                    <Table.Td>
                      <RowActions source={s} onChanged={sources.reload} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <LoadMore list={sources} noun="sources" />
    </>
  );
}
