import { useState } from "react";
import { Alert, Anchor, Button, Group } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { href, navigate } from "../router.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { RunNowModal, type RunTrigger } from "./run-now-modal.tsx";

interface Workflow {
  id: string;
  name: string;
  active: boolean;
  trigger: RunTrigger;
}

/** Run now (with an event typed in a dialog), Edit, Enable/Disable, Delete (after a confirmation); a failure shows under them. */
export function WorkflowActions({ workflow: w, onChanged }: { workflow: Workflow; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const { busy, error, act, dismiss } = useAction();
  const [running, setRunning] = useState(false);
  const path = { params: { path: { id: w.id } } };

  const runNow = (body: { event?: unknown }) => {
    // the run endpoint's body is optional, so the generated types don't declare it
    const init = { ...path, body } as typeof path;
    let started: string | undefined;
    return act(
      "Run now",
      async () => {
        const res = await api.POST("/v1/workflows/{id}/run", init);
        started = res.data?.data.run_id;
        return res;
      },
      () => {
        setRunning(false);
        // the answer names the run: it can be opened before it has even started
        notifications.show({
          message: started ? (
            <>
              {w.name}: run started.{" "}
              <Anchor href={href("runs", started)} size="sm" data-testid="run-now-open">
                Open the run
              </Anchor>
            </>
          ) : (
            `${w.name}: run requested`
          ),
        });
      },
    );
  };
  const toggle = () => act(w.active ? "Disable" : "Enable", () => api.PUT("/v1/workflows/{id}", { ...path, body: { active: !w.active } }), onChanged);
  const remove = () =>
    act("Delete", () => api.DELETE("/v1/workflows/{id}", path), () => {
      notifications.show({ message: `${w.name} deleted` });
      navigate("workflows");
    });

  return (
    <>
      <Group gap="xs">
        <Button
          variant="light"
          onClick={() => {
            dismiss();
            setRunning(true);
          }}
          loading={busy === "Run now"}
        >
          Run now
        </Button>
        <Button variant="default" component="a" href={href("workflows", w.id, "edit")}>
          Edit
        </Button>
        <Button variant="default" onClick={toggle} loading={busy === "Disable" || busy === "Enable"}>
          {w.active ? "Disable" : "Enable"}
        </Button>
        <ConfirmButton size="sm" label="Delete" title={`Delete ${w.name}?`} text="The workflow, its events and its subscriptions are deleted. This can't be undone." onConfirm={remove} />
      </Group>
      {error && (
        <Alert color="red" variant="light" w="100%" role="alert" data-testid="error" withCloseButton onClose={dismiss}>
          {error}
        </Alert>
      )}
      {/* kept mounted: a body typed for one run is there for the next */}
      <RunNowModal
        opened={running}
        onClose={() => setRunning(false)}
        name={w.name}
        trigger={w.trigger}
        busy={busy === "Run now"}
        error={error?.startsWith("Run now") ? error : undefined}
        onRun={(b) => void runNow(b)}
      />
    </>
  );
}
