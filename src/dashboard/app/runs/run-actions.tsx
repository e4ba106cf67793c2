import { Alert, Button, Group } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { navigate } from "../router.ts";
import { toastDone } from "../ui/toasts.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { ResumeButton } from "./resume-button.tsx";
import { isLive, type Run } from "./run-types.ts";

/** Replay (a new run with this one's event), Resume (a suspended run), Cancel (a live one). */
export function RunActions({ run, onChanged }: { run: Run; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const { busy, error, act, dismiss } = useAction();
  const path = { params: { path: { run_id: run.id } } };
  const failedAtStep = run.status === "failed" && (run.steps?.some((s) => s.status === "failed") ?? false);

  const replay = () => {
    let made: string | undefined;
    return act(
      "Replay",
      async () => {
        const res = await api.POST("/v1/runs/{run_id}/replay", { ...path, body: { deployment: "current" } });
        made = res.data?.data.id;
        return res;
      },
      () => {
        toastDone("Replay started");
        if (made) navigate("runs", made);
      },
    );
  };
  const cancel = () =>
    act("Cancel", () => api.POST("/v1/runs/{run_id}/cancel", path), async () => {
      toastDone("Run cancelled");
      await onChanged();
    });
  const resume = (data: unknown) =>
    act("Resume", () => api.POST("/v1/runs/{run_id}/resume", { ...path, body: data === undefined ? {} : { data } }), async () => {
      toastDone("Run resumed");
      await onChanged();
    });

  return (
    <>
      <Group gap="xs">
        {/* a run that failed at a step has Replay on that step, beside Retry from this step */}
        {!failedAtStep && (
          <Button variant="light" onClick={replay} loading={busy === "Replay"} title="Run the workflow again, as it is now, with this run's trigger event">
            Replay
          </Button>
        )}
        {run.status === "suspended" && <ResumeButton onResume={resume} busy={busy === "Resume"} />}
        {isLive(run.status) && (
          <ConfirmButton
            size="sm"
            label="Cancel run"
            title="Cancel this run?"
            text="The run stops where it is: the steps it hasn't run are skipped. This can't be undone; Replay starts it anew."
            onConfirm={cancel}
          />
        )}
      </Group>
      {error && (
        <Alert color="red" variant="light" w="100%" role="alert" data-testid="error" withCloseButton onClose={dismiss}>
          {error}
        </Alert>
      )}
    </>
  );
}
