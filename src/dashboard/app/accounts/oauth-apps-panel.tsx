import { Button, Group, Loader, Paper, Text, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { dataOf } from "../api-error.ts";

// "Connect" per OAuth app an admin configured: the provider's page, then the account.

export function OAuthAppsPanel({ waiting, connect }: { waiting?: string; connect: (app: string) => void }) {
  const { api } = useSession();
  const apps = useQuery(async () => dataOf(await api.GET("/v1/oauth_apps")).data, [api]);
  if (!apps.data || apps.data.length === 0) return null;
  return (
    <Paper withBorder p="lg">
      <Title order={5} mb={4}>
        Connect with OAuth
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Sign in at the app's own page; the account's tokens are kept fresh for you.
      </Text>
      <Group gap="sm">
        {apps.data.map((a) => (
          <Button key={a.id} variant="light" onClick={() => connect(a.app)} disabled={waiting !== undefined} aria-label={`Connect ${a.app}`}>
            Connect {a.app}
          </Button>
        ))}
        {waiting && (
          <Group gap={6}>
            <Loader size="xs" />
            <Text size="sm" c="dimmed" data-testid="oauth-waiting">
              Waiting for {waiting.replace(/^Connect /, "")} in the other tab…
            </Text>
          </Group>
        )}
      </Group>
    </Paper>
  );
}
