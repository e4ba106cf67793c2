import { Badge, Group, Skeleton, Tabs, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { dataOf, isNotFound, ApiError } from "../api-error.ts";
import { href, navigate } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { EventInspector } from "../events/event-inspector.tsx";
import { SourceActions } from "./source-actions.tsx";
import { SourceProps } from "./source-props.tsx";
import { Endpoints } from "./endpoints.tsx";
import { CopyValue } from "../ui/copy-value.tsx";
import { SourceInvocations } from "../runs/source-invocations.tsx";
import { SourceFacts, scheduleOf } from "./source-facts.tsx";
import { useErrorSummaries } from "../hooks/use-error-summaries.ts";
import { FailureAlert } from "../ui/failure-badge.tsx";

// a timer source has no endpoint to send requests to: its empty state says when it runs instead
const eventsEmpty = (schedule: string | undefined) => ({
  title: "No events yet",
  text: schedule
    ? `New events appear here as they are emitted. It runs ${schedule}; Run now runs it at once.`
    : "New events appear here as they are emitted. Run the source now, or send a request to its endpoint.",
});

const TABS = [
  { value: "events", label: "Events", stream: "", empty: eventsEmpty(undefined) },
  { value: "errors", label: "$errors", stream: "$errors", empty: { title: "No errors", text: "When a run of this source throws, the error and its event appear here." } },
  { value: "logs", label: "$logs", stream: "$logs", empty: { title: "No logs yet", text: "What the component writes with console.log appears here, run by run." } },
];

export function SourcePage({ id, tab }: { id: string; tab: string }) {
  const { api } = useSession();
  const source = useQuery(async () => dataOf(await api.GET("/v1/sources/{id}", { params: { path: { id } } })).data, [api, id]);
  const failures = useErrorSummaries([id]);

  if (source.error) {
    if (source.error instanceof ApiError && isNotFound(source.error.body))
      return <EmptyState title="Source not found" text={`There is no source ${id} among yours. It may have been deleted.`} action={{ label: "Back to sources", href: href("sources") }} />;
    return <ErrorAlert error={source.error} title="Could not read the source" />;
  }
  const s = source.data;
  if (!s) return <Skeleton h={200} />;
  const current = TABS.some((t) => t.value === tab) || tab === "props" || tab === "invocations" ? tab : "events";

  return (
    <>
      <PageHeader
        title={s.name}
        description={
          <Group gap="xs">
            <Badge color={s.active ? "green" : "gray"} variant="light" data-testid="source-status">
              {s.active ? "enabled" : "disabled"}
            </Badge>
            <Text size="xs" ff="monospace">
              {s.id}
            </Text>
            <CopyValue value={s.id} label="Copy the source id" />
          </Group>
        }
      >
        <SourceActions source={s} onChanged={source.reload} />
      </PageHeader>
      <SourceFacts componentId={s.component_id} configured={s.configured_props as Record<string, unknown>} />
      <Endpoints configured={s.configured_props as Record<string, unknown>} />
      {current !== "errors" && <FailureAlert summary={failures.get(id)} errorsHref={href("sources", id, "errors")} />}
      <Tabs value={current} onChange={(v) => v && navigate("sources", id, v)} keepMounted={false}>
        <Tabs.List mb="md">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value="invocations">Invocations</Tabs.Tab>
          <Tabs.Tab value="props">Props</Tabs.Tab>
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            <EventInspector kind="sources" id={id} stream={t.stream} empty={t.value === "events" ? eventsEmpty(scheduleOf(s.configured_props as Record<string, unknown>)) : t.empty} />
          </Tabs.Panel>
        ))}
        <Tabs.Panel value="invocations">
          <SourceInvocations sourceId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="props">
          <SourceProps source={s} onSaved={source.reload} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
