import { useState, type FormEvent } from "react";
import { Button, Group, Paper, SimpleGrid, Stack, Switch, TextInput, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { toastDone } from "../ui/toasts.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { noProblems, problemsOf, type Problems } from "../field-problems.ts";
import { ENV_FIELDS } from "./env-var.ts";
import { ValueInput } from "./value-input.tsx";

const EMPTY = { name: "", value: "", secret: false };

/** The form that adds a variable. A name already set is edited in the list, not overwritten here. */
export function AddEnvVar({ existing, onAdded }: { existing: string[]; onAdded: () => Promise<void> }) {
  const { api } = useSession();
  const [form, setForm] = useState(EMPTY);
  const [problems, setProblems] = useState<Problems>(noProblems);
  const [busy, setBusy] = useState(false);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const name = form.name.trim();
    if (existing.includes(name)) return setProblems({ fields: { name: `${name} is already set: edit it in the list below` } });
    setBusy(true);
    try {
      const res = await api.PUT("/v1/users/me/env/{name}", { params: { path: { name } }, body: { value: form.value, secret: form.secret } });
      if (!res.data) return setProblems(problemsOf(res.error, ENV_FIELDS));
      // the form forgets the value at once: a secret's is never on the page after this
      setForm(EMPTY);
      setProblems(noProblems);
      toastDone(`${name} added${form.secret ? " (secret)" : ""}`);
      await onAdded();
    } catch (err) {
      setProblems(problemsOf(err, ENV_FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="lg" component="form" onSubmit={add} data-testid="add-env-var">
      <Title order={5} mb="sm">
        Add a variable
      </Title>
      <Stack gap="sm" maw={640}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Name"
            placeholder="SLACK_TOKEN"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
            error={problems.fields.name}
            required
            spellCheck={false}
            autoComplete="off"
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          />
          <ValueInput secret={form.secret} value={form.value} onChange={(value) => setForm({ ...form, value })} error={problems.fields.value} />
        </SimpleGrid>
        <Switch
          label="Secret"
          description="Its value is never shown again, not even to you"
          checked={form.secret}
          onChange={(e) => setForm({ ...form, secret: e.currentTarget.checked })}
          error={problems.fields.secret}
        />
        <ErrorAlert error={problems.form} title="Not added" />
        <Group>
          <Button type="submit" loading={busy}>
            Add variable
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
