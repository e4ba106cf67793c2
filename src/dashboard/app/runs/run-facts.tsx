import type { ReactNode } from "react";
import { Alert, Anchor, Badge, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { RunLineage } from "./run-lineage.tsx";
import { href } from "../router.ts";
import { formatDuration, formatWhen, relative } from "./run-time.ts";
import { triggerSummary } from "./trigger-summary.ts";
import { ViewDeploymentCode } from "./deployment-code.tsx";
import { type Run, type Waiting } from "./run-types.ts";

function Fact({ label, children, testid, wide }: { label: string; children: ReactNode; testid?: string; wide?: boolean }) {
  return (
    <Stack gap={2} style={{ minWidth: 0, gridColumn: wide ? "span 2" : undefined }} data-testid={testid}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Stack>
  );
}

/**
 * The status the trigger's request was answered with. Without a custom response that is a 200 at
 * acceptance, before any step ran: a green "200" on a run that then failed would say it went well.
 */
function Reply({ run, status }: { run: Run; status: number }) {
  if (run.status === "failed" && status < 400)
    return (
      <Text span size="sm" c="dimmed" data-tone="neutral">
        answered {status} at acceptance; the run then failed
      </Text>
    );
  return (
    <Badge variant="outline" color={status < 400 ? "green" : "red"}>
      HTTP {status}
    </Badge>
  );
}

/** How the run started, as the API says it (started_by). */
const STARTED_BY: Record<Run["started_by"], string> = {
  request: "HTTP request",
  run_now: "Run now",
  replay: "Replay",
  retry: "Retry",
  event: "Event",
  timer: "Timer",
};

/** When, how long, what started it, which workflow and deployment, where it came from and what its caller got. */
export function RunFacts({ run, workflowName, now }: { run: Run; workflowName: string | undefined; now: number }) {
  const duration = (run.ended_at_ms ?? now) - run.started_at_ms;
  return (
    <Paper withBorder p="md" data-testid="run-facts">
      <SimpleGrid cols={{ base: 2, sm: 3, xl: 6 }} spacing="md" verticalSpacing="sm">
        <Fact label="Workflow">
          <Anchor href={href("workflows", run.workflow_id)} size="sm" data-testid="workflow-link">
            {workflowName ?? run.workflow_id}
          </Anchor>
        </Fact>
        <Fact label="Started">{formatWhen(run.started_at_ms)}</Fact>
        <Fact label="Ended">{run.ended_at_ms === null ? <Text c="dimmed" size="sm">not yet</Text> : formatWhen(run.ended_at_ms)}</Fact>
        <Fact label="Duration" testid="run-duration">
          {formatDuration(duration)}
          {run.ended_at_ms === null && <Text span c="dimmed" size="sm"> so far</Text>}
        </Fact>
        <Fact label="Trigger">
          <Text span ff="monospace" size="sm">
            {triggerSummary(run.trigger_event)}
          </Text>
        </Fact>
        <Fact label="Started by" testid="run-started-by">
          {STARTED_BY[run.started_by]}
        </Fact>
        {/* only a request was answered: a run now, replay or retry answered nobody */}
        {run.response && run.started_by === "request" && (
          <Fact label="HTTP reply" testid="run-response">
            <Reply run={run} status={run.response.status} />
          </Fact>
        )}
        <Fact label="Deployment" testid="run-deployment" wide>
          ran deployment{" "}
          <Text span ff="monospace" size="sm">
            {run.deployment_id}
          </Text>{" "}
          <Text span c="dimmed" size="sm">
            {run.deployment_current === false ? "(an earlier deployment)" : run.deployment_current ? "(current)" : ""}
          </Text>{" "}
          <ViewDeploymentCode workflowId={run.workflow_id} deploymentId={run.deployment_id} />
        </Fact>
        <RunLineage run={run} />
      </SimpleGrid>
    </Paper>
  );
}

const WAITS: Record<Waiting["for"], { what: string; until: string }> = {
  delay: { what: "Delayed by $.flow.delay", until: "goes on" },
  suspend: { what: "Suspended by $.flow.suspend: waiting to be resumed", until: "times out (and fails)" },
  rerun: { what: "Waiting to run the step again ($.flow.rerun)", until: "runs again" },
  retry: { what: "The step failed and will be retried", until: "retries" },
  queued: { what: "Queued: waiting for room under the workflow's concurrency or rate", until: "starts" },
};

/** What a live run waits for, and until when. */
export function WaitingNote({ run, now }: { run: Run; now: number }) {
  const w = run.waiting;
  if (!w) return null;
  const step = run.steps?.[w.step_index]?.name;
  const text = WAITS[w.for];
  return (
    <Alert color="yellow" variant="light" data-testid="waiting" data-for={w.for} py="xs">
      <Text size="sm">
        {text.what}
        {step !== undefined && <> at step <b>{step}</b></>}.{" "}
        {w.until_ms === null ? "It goes on only when resumed (or cancelled)." : `It ${text.until} ${relative(w.until_ms, now)}, at ${formatWhen(w.until_ms)}.`}
      </Text>
    </Alert>
  );
}
