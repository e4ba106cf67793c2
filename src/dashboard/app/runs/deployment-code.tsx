import { useState } from "react";
import { Alert, Anchor, Badge, Code, Group, Modal, Skeleton, Stack, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { paths } from "../../../client/index.ts";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href } from "../router.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { CodeEditor } from "../code-editor/code-editor.tsx";
import { formatWhen } from "./run-time.ts";

// "View code as it ran": the steps of the deployment a run ran (GET
// /v1/workflows/{id}/deployments/{deployment_id}), read-only, saying whether the workflow still
// runs them. A fix made since shows up as the difference between this and the editor.

type Deployment = paths["/v1/workflows/{id}/deployments/{deployment_id}"]["get"]["responses"][200]["content"]["application/json"]["data"];
type Step = Deployment["steps"][number];

function StepCode({ step, index }: { step: Step; index: number }) {
  const props = Object.keys(step.props);
  const title = (
    <Text fw={600} size="sm" component="span" style={{ overflowWrap: "anywhere" }}>
      {index + 1}. {step.name}
    </Text>
  );
  return (
    <Stack gap={4} data-testid="deployed-step" data-step={step.name}>
      {step.code !== undefined ? (
        <CodeEditor ariaLabel={`Code of ${step.name} as it ran`} label={title} value={step.code} minLines={3} />
      ) : (
        <>
          {title}
          <Text size="sm" c="dimmed">
            runs {step.key ? <>the registry component <Code>{step.key}</Code></> : <>the saved component <Code>{step.component_id}</Code></>}
          </Text>
        </>
      )}
      {props.length > 0 && (
        <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="deployed-props">
          {`props ${JSON.stringify(step.props, null, 2)}`}
        </Code>
      )}
    </Stack>
  );
}

function DeploymentSteps({ workflowId, deploymentId }: { workflowId: string; deploymentId: string }) {
  const { api } = useSession();
  const d = useQuery(
    async (): Promise<Deployment> => dataOf(await api.GET("/v1/workflows/{id}/deployments/{deployment_id}", { params: { path: { id: workflowId, deployment_id: deploymentId } } })).data,
    [api, workflowId, deploymentId],
  );
  if (d.error) {
    if (d.error instanceof ApiError && isNotFound(d.error.body))
      return (
        <Alert color="gray" variant="light" data-testid="deployment-gone">
          This deployment is no longer kept: a workflow keeps an earlier deployment only while one of its runs ran it.
        </Alert>
      );
    return <ErrorAlert error={d.error} title="Could not read the deployment" />;
  }
  if (!d.data) return <Skeleton h={200} />;
  const dep = d.data;
  return (
    <Stack gap="md" data-testid="deployment-code" data-current={dep.current}>
      <Alert color={dep.current ? "green" : "yellow"} variant="light" data-testid="deployment-current">
        {dep.current ? (
          <>This is the workflow's current deployment: its steps run this code now.</>
        ) : (
          <>
            An earlier deployment, made {formatWhen(dep.created_at * 1000)}: the workflow has changed since. Replay and Retry run the current code unless told
            otherwise;{" "}
            <Anchor href={href("workflows", workflowId, "edit")} inherit>
              the editor
            </Anchor>{" "}
            has it.
          </>
        )}
      </Alert>
      <Group gap="xs">
        <Badge variant="outline" color="gray">
          trigger: {dep.trigger.type}
        </Badge>
        <Badge variant="outline" color="gray">
          retries: {dep.settings.retries}
        </Badge>
      </Group>
      {dep.steps.map((s, i) => (
        <StepCode key={s.id} step={s} index={i} />
      ))}
    </Stack>
  );
}

/** The button beside the run's deployment fact, and the dialog it opens. */
export function ViewDeploymentCode({ workflowId, deploymentId }: { workflowId: string; deploymentId: string }) {
  const [opened, setOpened] = useState(false);
  const narrow = useMediaQuery("(max-width: 36em)");
  return (
    <>
      <Anchor component="button" type="button" size="sm" fw={500} onClick={() => setOpened(true)} data-testid="view-code" style={{ whiteSpace: "nowrap" }}>
        View code as it ran
      </Anchor>
      <Modal opened={opened} onClose={() => setOpened(false)} title={<Text fw={600}>Code as it ran · <Text span ff="monospace" size="sm">{deploymentId}</Text></Text>} size="xl" fullScreen={narrow}>
        <DeploymentSteps workflowId={workflowId} deploymentId={deploymentId} />
      </Modal>
    </>
  );
}
