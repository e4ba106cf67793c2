import { useState, type FormEvent } from "react";
import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from "@mantine/core";

export function SignIn({ onSignIn, notice }: { onSignIn: (key: string) => Promise<string | undefined>; notice?: string }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(await onSignIn(key.trim()));
    setBusy(false);
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="form" onSubmit={submit} w={400} p="xl" shadow="sm" withBorder>
        <Stack>
          <div>
            <Title order={2}>Tributary</Title>
            <Text c="dimmed" size="sm">
              Sign in with an API key
            </Text>
          </div>
          <PasswordInput
            label="API key"
            placeholder="trb_…"
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
            autoFocus
            required
            error={error}
            data-testid="api-key"
          />
          <Button type="submit" loading={busy} disabled={!key.trim()}>
            Sign in
          </Button>
          <Text size="xs" c="dimmed">
            The key is sent once, to sign in, and never kept by this page: the browser keeps a session cookie that
            scripts can't read, for 30 days or until you sign out. An admin can create users and keys; the first admin
            key is printed when the service starts for the first time.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
