import { Fragment, useState } from "react";
import { Badge, Button, Group, Paper, Stack, Table, Text, Tooltip } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { usePaged } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf, messageOf } from "../api-error.ts";
import { toastFailed } from "../ui/toasts.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { formatWhen } from "../time-format.ts";
import { OAuthAppsPanel } from "./oauth-apps-panel.tsx";
import { ManualAccountForm } from "./manual-account-form.tsx";
import { useOAuthFlow } from "./use-oauth-flow.ts";
import { AccountEventsUrl } from "./account-events-url.tsx";

// Connected accounts (apn_…): an app's credentials, sealed at rest and never shown again, that
// components' app props use. OAuth ones are connected at the provider and refreshed by the
// service; one whose refresh was refused is marked, with a Reconnect button. Under each, the
// events URL its app posts to (account-events-url.tsx), on a row of its own: it is long. On a
// narrow screen the table scrolls inside its frame, so New URL stays reachable.

interface AccountRowData {
  id: string;
  app: string;
  name: string;
  auth_fields: string[];
  oauth: boolean;
  status: "ok" | "error";
  status_reason?: string;
  expires_at_ms?: number;
  events_url: string | null;
}

function StatusCell({ a }: { a: AccountRowData }) {
  if (a.status === "error") {
    return (
      <Tooltip label={a.status_reason ?? "its token refresh was refused"} multiline w={320}>
        <Stack gap={2} maw={220}>
          <Badge color="red" variant="light" data-testid={`account-error-${a.id}`}>
            Error
          </Badge>
          <Text size="xs" c="red" lineClamp={2}>
            {a.status_reason ?? "its token refresh was refused: reconnect it"}
          </Text>
        </Stack>
      </Tooltip>
    );
  }
  if (!a.oauth) return <Text size="xs" c="dimmed">credentials</Text>;
  return (
    <Stack gap={2}>
      <Badge color="green" variant="light">
        OAuth
      </Badge>
      {a.expires_at_ms !== undefined && (
        <Text size="xs" c="dimmed">
          token until {formatWhen(a.expires_at_ms)}
        </Text>
      )}
    </Stack>
  );
}

export function AccountsPage() {
  const { api } = useSession();
  const list = usePaged(async (query) => dataOf(await api.GET("/v1/users/me/accounts", { params: { query } })), [api]);
  const [rowError, setRowError] = useState<string>();
  const flow = useOAuthFlow(() => list.reload());

  const remove = async (id: string) => {
    const res = await api.DELETE("/v1/accounts/{id}", { params: { path: { id } } });
    setRowError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Delete account", messageOf(res.error));
    await list.reload();
  };
  const connect = (app: string) => void flow.start(`Connect ${app}`, () => api.POST("/v1/accounts/connect", { body: { app } }));
  const reconnect = (a: AccountRowData) =>
    void flow.start(`Reconnect ${a.name}`, () => api.POST("/v1/accounts/{id}/reconnect", { params: { path: { id: a.id } }, body: {} }));

  return (
    <>
      <PageHeader title="Accounts" description="Credentials of the apps your components use (app props). Stored encrypted; never shown again." />
      <Stack gap="lg">
        <OAuthAppsPanel waiting={flow.waiting} connect={connect} />
        <ManualAccountForm onCreated={() => list.reload()} />
        <ErrorAlert error={list.error ?? rowError} />
        {list.data?.length === 0 && <EmptyState title="No accounts yet" text="Connect one above; a component with an app prop can then be deployed with it." />}
        {list.data && list.data.length > 0 && (
          <Paper withBorder>
            <Table.ScrollContainer minWidth={640} type="native">
              <Table verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>App</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Fields</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {(list.data as AccountRowData[]).map((a) => (
                    <Fragment key={a.id}>
                      <Table.Tr data-testid={`account-${a.id}`} style={{ borderBottom: 0 }}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {a.name}
                          </Text>
                          <Text size="xs" c="dimmed" ff="monospace">
                            {a.id}
                          </Text>
                        </Table.Td>
                        <Table.Td>{a.app}</Table.Td>
                        <Table.Td>
                          <StatusCell a={a} />
                        </Table.Td>
                        <Table.Td>
                          <Text size="xs" ff="monospace">
                            {a.auth_fields.join(", ")}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            {a.oauth && (
                              <Button size="xs" variant={a.status === "error" ? "filled" : "default"} onClick={() => reconnect(a)} disabled={flow.waiting !== undefined}>
                                Reconnect
                              </Button>
                            )}
                            <ConfirmButton label="Delete" title={`Delete ${a.name}?`} text="Its credentials are deleted; sources that use this account lose access to the app." onConfirm={() => remove(a.id)} />
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Td colSpan={5} pt={0}>
                          <AccountEventsUrl account={a} onChanged={() => list.reload()} />
                        </Table.Td>
                      </Table.Tr>
                    </Fragment>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
        <LoadMore list={list} noun="accounts" />
      </Stack>
    </>
  );
}
