import { useState } from "react";
import { Alert, Badge, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { JsonView } from "../ui/json-view.tsx";
import { ErrorBlock, LogList } from "../runs/log-list.tsx";
import { formatDuration } from "../runs/run-time.ts";
import { errorInfo, logLines } from "../runs/run-types.ts";
import type { paths } from "../../../client/index.ts";
import { useStepTestTarget } from "./step-test-context.ts";
import type { StepDraft } from "./workflow-draft.ts";

// A step's Test: its draft (a code step's code and props; an action step as saved) run once
// against the chosen run, the result shown under the step. Nothing is committed, so what it would
// send is only listed.

type TestResult = paths["/v1/workflows/{id}/steps/{name}/test"]["post"]["responses"][200]["content"]["application/json"]["data"];

function draftOf(step: StepDraft): { code?: string; props?: Record<string, unknown> } | string {
  if (step.kind !== "code") return {};
  if (step.props.trim() === "") return { code: step.code };
  try {
    return { code: step.code, props: JSON.parse(step.props) as Record<string, unknown> };
  } catch {
    return "its props are not JSON";
  }
}

const sendText = (s: TestResult["sends"][number]): string => {
  const r = (s.request ?? {}) as { method?: unknown; url?: unknown; subject?: unknown; to?: unknown };
  if (s.kind === "http") return `${typeof r.method === "string" ? r.method : "POST"} ${String(r.url ?? "")}`;
  return `email${typeof r.subject === "string" ? `: ${r.subject}` : ""}`;
};

function Result({ result }: { result: TestResult }) {
  const error = errorInfo(result.error);
  const logs = logLines(result.logs);
  return (
    <Paper withBorder p="sm" bg={error ? "red.0" : "gray.0"} data-testid="step-test-result" data-outcome={error ? "failed" : "succeeded"}>
      <Stack gap={6}>
        <Group gap="xs">
          <Badge color={error ? "red" : "green"} variant="light">
            {error ? "threw" : "ran"}
          </Badge>
          <Text size="xs" c="dimmed">
            in {formatDuration(result.duration_ms)} · nothing committed{result.flow ? ` · asked to ${result.flow} (nothing waits)` : ""}
          </Text>
        </Group>
        {error && <ErrorBlock error={error} />}
        {!error && (
          <div data-testid="step-test-return">
            <Text size="xs" fw={600} c="dimmed">
              Return value
            </Text>
            <JsonView value={result.return_value ?? null} />
          </div>
        )}
        {logs.length > 0 && <LogList lines={logs} />}
        {result.sends.map((s, i) => (
          <Text key={i} size="sm" ff="monospace" data-testid="step-test-send">
            would send {sendText(s)}
          </Text>
        ))}
        {result.data_store_writes.map((w) => (
          <Text key={w.store} size="sm" data-testid="step-test-store">
            would write {w.operations} {w.operations === 1 ? "change" : "changes"} to data store {w.store}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}

export function StepTest({ step }: { step: StepDraft }) {
  const { api } = useSession();
  const target = useStepTestTarget();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult>();
  const [error, setError] = useState<string>();
  if (!target) return null;
  const { workflowId, runId } = target;

  const test = async () => {
    const draft = draftOf(step);
    if (typeof draft === "string") return setError(`Can't test: ${draft}`);
    if (!runId) return setError("Can't test: choose a run to test against above the steps");
    setBusy(true);
    setError(undefined);
    try {
      const res = await api.POST("/v1/workflows/{id}/steps/{name}/test", { params: { path: { id: workflowId, name: step.name } }, body: { run_id: runId, ...draft } });
      if (res.data) setResult(res.data.data);
      else setError(`Test failed: ${messageOf(res.error)}`);
    } catch (e) {
      setError(`Test failed: ${messageOf(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6} data-testid="step-test">
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => void test()} loading={busy} disabled={!step.name} aria-label={`Test ${step.name}`}>
          Test
        </Button>
        <Text size="xs" c="dimmed">
          {step.kind === "code" ? "runs this draft" : "runs the saved step"} once against the chosen run; commits nothing
        </Text>
      </Group>
      {error && (
        <Alert color="red" variant="light" py="xs" data-testid="step-test-error" withCloseButton onClose={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      {result && <Result result={result} />}
    </Stack>
  );
}
