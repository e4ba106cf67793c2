import { useState, type FormEvent } from "react";
import { Button, Code, Group, Modal, Stack, Switch, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { toastDone } from "../ui/toasts.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { noProblems, problemsOf, type Problems } from "../field-problems.ts";
import { ENV_FIELDS, type EnvVar } from "./env-var.ts";
import { ValueInput } from "./value-input.tsx";

/**
 * Edits a variable's value in a modal. A secret's box starts empty: the page never has its value,
 * so the only edit is a replacement. Turning "secret" off makes the new value readable again.
 */
export function EditEnvVar({ envVar: v, onSaved }: { envVar: EnvVar; onSaved: () => Promise<void> }) {
  const { api } = useSession();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const [secret, setSecret] = useState(v.secret);
  const [problems, setProblems] = useState<Problems>(noProblems);
  const [busy, setBusy] = useState(false);
  const action = v.secret ? "Replace value" : "Edit";

  const start = () => {
    setValue(v.value ?? "");
    setSecret(v.secret);
    setProblems(noProblems);
    setOpen(true);
  };
  const close = () => {
    // nothing typed for a secret stays in the page once the modal is gone
    setValue("");
    setOpen(false);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await api.PUT("/v1/users/me/env/{name}", { params: { path: { name: v.name } }, body: { value, secret } });
      if (!res.data) return setProblems(problemsOf(res.error, ENV_FIELDS));
      close();
      toastDone(`${v.name} saved`);
      await onSaved();
    } catch (err) {
      setProblems(problemsOf(err, ENV_FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="xs" variant="light" onClick={start}>
        {action}
      </Button>
      <Modal opened={open} onClose={close} title={<Code fz="sm">{v.name}</Code>} centered>
        <Stack gap="sm" component="form" onSubmit={save} data-testid="edit-env-var">
          {v.secret && (
            <Text size="sm" c="dimmed">
              Its value is secret and is never shown. Type the new one: it replaces the old one for the next runs.
            </Text>
          )}
          <ValueInput secret={secret} label={v.secret ? "New value" : "Value"} value={value} onChange={setValue} error={problems.fields.value} />
          <Switch label="Secret" checked={secret} onChange={(e) => setSecret(e.currentTarget.checked)} error={problems.fields.secret} />
          <ErrorAlert error={problems.form} title="Not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {v.secret ? "Replace value" : "Save"}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
