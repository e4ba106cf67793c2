import { Button, Code, Group, Stack, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { toastDone } from "../ui/toasts.ts";
import { CopyValue } from "../ui/copy-value.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";

// An account's events_url: where its app (Slack's Event Subscriptions, a Shopify or GitHub
// webhook) posts the events its apphook sources get. Users come here to copy it into the app, and
// to replace one that leaked. An account an older version of the service made has none until it
// gets one (here, or by an edit or reconnect).

export interface EventsUrlAccount {
  id: string;
  name: string;
  events_url: string | null;
}

export function AccountEventsUrl({ account, onChanged }: { account: EventsUrlAccount; onChanged: () => void | Promise<void> }) {
  const { api } = useSession();
  const { busy, error, act } = useAction();
  const url = account.events_url;
  const replace = (what: string) =>
    act(what, () => api.POST("/v1/accounts/{id}/events_url", { params: { path: { id: account.id } } }), async () => {
      toastDone(`${account.name} has a new events URL: paste it at the app`);
      await onChanged();
    });

  return (
    <Stack gap={4} data-testid={`account-events-${account.id}`}>
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" fw={500} style={{ whiteSpace: "nowrap" }}>
          Events URL
        </Text>
        {url !== null ? (
          <>
            <Code data-testid="events-url" style={{ overflowWrap: "anywhere" }}>
              {url}
            </Code>
            <CopyValue value={url} label="Copy the events URL" />
            <ConfirmButton
              label="New URL"
              title={`New events URL for ${account.name}?`}
              text="The current URL stops working at once (the app's events to it are refused with 404): paste the new one at the app afterwards."
              onConfirm={() => replace(`New events URL for ${account.name}`)}
            />
          </>
        ) : (
          <Button size="xs" variant="default" loading={busy !== undefined} onClick={() => void replace(`Events URL for ${account.name}`)}>
            Get a URL
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {url !== null
          ? "Paste this as the Request URL of your app's event subscriptions / webhook. It needs no API key: keep it private."
          : "No events URL yet: an older version of the service made this account. Get a URL here, or edit or reconnect the account to get one."}
      </Text>
      <ErrorAlert error={error} />
    </Stack>
  );
}
