import { useState, type FormEvent } from "react";
import { Alert, Button, Group, JsonInput, Modal, Stack, Text } from "@mantine/core";

// Run now with an event. The API hands the event to the steps as steps.trigger.event as it is, so
// for an HTTP workflow the body typed here is wrapped as a request to its endpoint would be
// ({method, path, query, headers, body, url}): steps written for real requests read
// steps.trigger.event.body either way.

export interface RunTrigger {
  type: string;
  endpoint_url?: string;
}

/** The event to send for the text typed; throws when it isn't JSON. Empty: no event (a timer gets its tick). */
export function eventFor(trigger: RunTrigger, text: string): { event?: unknown } {
  if (text.trim() === "") return trigger.type === "http" ? { event: requestEvent(trigger, {}, "") } : {};
  const value: unknown = JSON.parse(text);
  return { event: trigger.type === "http" ? requestEvent(trigger, value, text) : value };
}

function requestEvent(trigger: RunTrigger, body: unknown, raw: string) {
  return { method: "POST", path: "/", query: {}, headers: { "content-type": "application/json" }, bodyRaw: raw, body, url: trigger.endpoint_url ?? "" };
}

interface Props {
  opened: boolean;
  onClose: () => void;
  name: string;
  trigger: RunTrigger;
  busy: boolean;
  /** the API's refusal, shown here while the dialog is open */
  error?: string;
  onRun: (body: { event?: unknown }) => void;
}

export function RunNowModal({ opened, onClose, name, trigger, busy, error, onRun }: Props) {
  const http = trigger.type === "http";
  const [text, setText] = useState(http ? "{}" : "");
  const [invalid, setInvalid] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    let body: { event?: unknown };
    try {
      body = eventFor(trigger, text);
    } catch (err) {
      return setInvalid(`Not JSON: ${(err as Error).message}`);
    }
    setInvalid(undefined);
    onRun(body);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Run ${name} now`} size="lg">
      <Stack component="form" onSubmit={submit} gap="sm" data-testid="run-now-form">
        <Text size="sm" c="dimmed">
          {http
            ? "Sent as the JSON body of a POST to its endpoint: the steps read it as steps.trigger.event.body."
            : trigger.type === "timer"
              ? "The steps read it as steps.trigger.event. Empty: a timer tick, as the schedule sends."
              : "The steps read it as steps.trigger.event. Empty: no event."}
        </Text>
        <JsonInput
          label={http ? "Request body (JSON)" : "Event (JSON)"}
          value={text}
          onChange={(v) => {
            setText(v);
            setInvalid(undefined);
          }}
          error={invalid}
          // checked when it loses focus, too: shown instead of `error` while the text isn't JSON
          validationError="Not JSON: it can't be sent as it is"
          placeholder={http ? '{"name": "Ada"}' : "empty, or any JSON"}
          formatOnBlur
          autosize
          minRows={6}
          maxRows={18}
          spellCheck={false}
          data-autofocus
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 13 } }}
        />
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Run
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
