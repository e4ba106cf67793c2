import { Badge, Code, Group, Skeleton, Tabs, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href, navigate } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { EventInspector } from "../events/event-inspector.tsx";
import { triggerText } from "./trigger-text.ts";
import { WorkflowActions } from "./workflow-actions.tsx";
import { CopyValue } from "../ui/copy-value.tsx";
import { WorkflowRuns } from "../runs/workflow-runs.tsx";
import { useErrorSummaries } from "../hooks/use-error-summaries.ts";
import { WorkflowFailureAlert } from "./workflow-failure-alert.tsx";

export function WorkflowPage({ id, tab }: { id: string; tab: string }) {
  const { api } = useSession();
  const wf = useQuery(async () => dataOf(await api.GET("/v1/workflows/{id}", { params: { path: { id } } })).data, [api, id]);
  const failures = useErrorSummaries([id]);

  if (wf.error) {
    if (wf.error instanceof ApiError && isNotFound(wf.error.body))
      return <EmptyState title="Workflow not found" text={`There is no workflow ${id} among yours.`} action={{ label: "Back to workflows", href: href("workflows") }} />;
    return <ErrorAlert error={wf.error} title="Could not read the workflow" />;
  }
  const w = wf.data;
  if (!w) return <Skeleton h={200} />;

  return (
    <>
      <PageHeader
        title={w.name}
        description={
          <Group gap="xs">
            <Badge color={w.active ? "green" : "gray"} variant="light" data-testid="workflow-status">
              {w.active ? "enabled" : "disabled"}
            </Badge>
            <Text size="xs">{triggerText(w.trigger)}</Text>
            <Text size="xs" ff="monospace">
              {w.id}
            </Text>
            <CopyValue value={w.id} label="Copy the workflow id" />
          </Group>
        }
      >
        <WorkflowActions workflow={w} onChanged={wf.reload} />
      </PageHeader>
      {w.trigger.endpoint_url && (
        <Text size="sm" mb="md">
          Endpoint <Code style={{ overflowWrap: "anywhere" }}>{w.trigger.endpoint_url}</Code> <CopyValue value={w.trigger.endpoint_url} label="Copy the endpoint URL" />
        </Text>
      )}
      {tab !== "errors" && <WorkflowFailureAlert workflowId={id} summary={failures.get(id)} />}
      <Text size="sm" c="dimmed" mb="md">
        Steps: {w.steps.map((s) => s.name).join(" → ")}
      </Text>
      <Tabs value={tab === "errors" || tab === "events" ? tab : "runs"} onChange={(v) => v && navigate("workflows", id, v)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="runs">Runs</Tabs.Tab>
          <Tabs.Tab value="events">Events</Tabs.Tab>
          <Tabs.Tab value="errors">$errors</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="runs">
          <WorkflowRuns workflowId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="events">
          <EventInspector kind="workflows" id={id} stream="" empty={{ title: "No events yet", text: "What the workflow emits appears here live. Run it now to see one." }} />
        </Tabs.Panel>
        <Tabs.Panel value="errors">
          <EventInspector kind="workflows" id={id} stream="$errors" empty={{ title: "No errors", text: "When a step throws, the error appears here." }} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
