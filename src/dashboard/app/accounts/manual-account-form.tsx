import { useState, type FormEvent } from "react";
import { Button, Group, Paper, Stack, TextInput, Textarea, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { toastFailed } from "../ui/toasts.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";

// An account whose credentials are pasted (an API key, a token made elsewhere): nobody refreshes them.

export function ManualAccountForm({ onCreated }: { onCreated: () => void | Promise<void> }) {
  const { api } = useSession();
  const [form, setForm] = useState({ app: "", name: "", auth: '{\n  "oauth_access_token": ""\n}' });
  const [error, setError] = useState<string>();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    let auth: unknown;
    try {
      auth = JSON.parse(form.auth);
    } catch {
      return setError("Credentials must be a JSON object");
    }
    const res = await api.POST("/v1/accounts", { body: { app: form.app.trim(), auth, ...(form.name.trim() ? { name: form.name.trim() } : {}) } });
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Connect account", messageOf(res.error));
    if (res.data) {
      setForm({ ...form, app: "", name: "" });
      await onCreated();
    }
  };

  return (
    <Paper withBorder p="lg" component="form" onSubmit={create}>
      <Title order={5} mb="sm">
        Add credentials by hand
      </Title>
      <Stack gap="sm" maw={560}>
        <Group grow>
          <TextInput label="App" placeholder="github" value={form.app} onChange={(e) => setForm({ ...form, app: e.currentTarget.value })} required />
          <TextInput label="Name" placeholder="optional" value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </Group>
        <Textarea label="Credentials (JSON)" autosize minRows={3} value={form.auth} onChange={(e) => setForm({ ...form, auth: e.currentTarget.value })} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
        <ErrorAlert error={error} title="Not connected" />
        <Group>
          <Button type="submit">Connect</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
