import { useState } from "react";
import { Alert, Button, Group, Modal, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { navigate } from "../router.ts";
import { watchRunOutcome } from "./run-outcome.ts";

interface Source {
  id: string;
  name: string;
  active: boolean;
}

/** Run now, enable/disable and delete (after a confirmation); a failure shows under the buttons. */
export function SourceActions({ source, onChanged }: { source: Source; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const { busy, error, act, dismiss } = useAction();
  const [confirming, setConfirming] = useState(false);
  const path = { params: { path: { id: source.id } } };

  const runNow = async () => {
    const watch = await watchRunOutcome(api, source.id, source.name);
    await act("Run now", () => api.POST("/v1/sources/{id}/run", path), () => {
      notifications.show({ message: `${source.name}: run requested` });
      watch();
    });
  };
  const toggle = () => act(source.active ? "Disable" : "Enable", () => api.PUT("/v1/sources/{id}", { ...path, body: { active: !source.active } }), onChanged);
  const remove = () =>
    act("Delete", () => api.DELETE("/v1/sources/{id}", path), () => {
      setConfirming(false);
      notifications.show({ message: `${source.name} deleted` });
      navigate("sources");
    });

  return (
    <>
      <Group gap="xs">
        <Button variant="light" onClick={runNow} loading={busy === "Run now"}>
          Run now
        </Button>
        <Button variant="default" onClick={toggle} loading={busy === "Disable" || busy === "Enable"}>
          {source.active ? "Disable" : "Enable"}
        </Button>
        <Button color="red" variant="subtle" onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" w="100%" role="alert" data-testid="error" withCloseButton onClose={dismiss}>
          {error}
        </Alert>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete this source?" centered>
        <Text size="sm">
          {source.name} and its events will be deleted. Subscriptions to and from it end. This can't be undone.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button color="red" onClick={remove} loading={busy === "Delete"}>
            Delete source
          </Button>
        </Group>
      </Modal>
    </>
  );
}
