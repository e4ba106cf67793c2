import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { href, navigate } from "../router.ts";
import { toastDone } from "../ui/toasts.ts";
import type { Run } from "./run-types.ts";

// Under the step a run failed at: the two ways to run it again once the code is fixed, side by
// side, each saying what it runs and with which code, so the choice needn't be looked up. Both use
// the workflow's current deployment: the fix is the reason to run it again.

export function FixFailedStep({ run, step }: { run: Run; step: string }) {
  const { api } = useSession();
  const { busy, error, act, dismiss } = useAction();
  const path = { params: { path: { run_id: run.id } } };

  const start = (what: "Retry" | "Replay") => {
    let made: string | undefined;
    return act(
      what,
      async () => {
        const res =
          what === "Retry"
            ? await api.POST("/v1/runs/{run_id}/retry", { ...path, body: { from_step: step, deployment: "current" } })
            : await api.POST("/v1/runs/{run_id}/replay", { ...path, body: { deployment: "current" } });
        made = res.data?.data.id;
        return res;
      },
      () => {
        toastDone(what === "Retry" ? `Retrying from ${step}` : "Replay started");
        if (made) navigate("runs", made);
      },
    );
  };

  return (
    <Stack gap={6} mt="sm" pl={26} data-testid="fix-failed-step">
      <Group gap="lg" align="flex-start" wrap="wrap">
        <Stack gap={2} maw={300}>
          <Button size="xs" onClick={() => void start("Retry")} loading={busy === "Retry"} disabled={busy === "Replay"}>
            Retry from this step
          </Button>
          <Text size="xs" c="dimmed">
            runs {step} and the steps after it again with the current code; the steps before keep this run's results
          </Text>
        </Stack>
        <Stack gap={2} maw={300}>
          <Button size="xs" variant="light" onClick={() => void start("Replay")} loading={busy === "Replay"} disabled={busy === "Retry"}>
            Replay
          </Button>
          <Text size="xs" c="dimmed">
            runs every step again with the current code, from this run's trigger event
          </Text>
        </Stack>
        <Anchor href={href("workflows", run.workflow_id, "edit", step, run.id)} size="sm" mt={4} data-testid="edit-step">
          Edit step
        </Anchor>
      </Group>
      {error && (
        <Alert color="red" variant="light" role="alert" data-testid="fix-error" withCloseButton onClose={dismiss} py="xs">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
