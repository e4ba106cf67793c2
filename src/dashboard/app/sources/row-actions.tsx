import { useState } from "react";
import { Button, Group, Stack, Switch, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { href } from "../router.ts";
import { toastFailed } from "../ui/toasts.ts";

/** A sources-list row's actions: enable/disable in place, and open. A failure shows in the row. */
export function RowActions({ source, onChanged }: { source: { id: string; name: string; active: boolean }; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const toggle = async () => {
    setBusy(true);
    const res = await api.PUT("/v1/sources/{id}", { params: { path: { id: source.id } }, body: { active: !source.active } });
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed(source.active ? "Disable" : "Enable", messageOf(res.error));
    await onChanged();
    setBusy(false);
  };
  return (
    <Stack gap={2} align="flex-end">
      <Group gap="sm" wrap="nowrap" justify="flex-end">
        <Switch checked={source.active} onChange={toggle} disabled={busy} aria-label={`${source.active ? "Disable" : "Enable"} ${source.name}`} size="sm" />
        <Button size="xs" variant="light" component="a" href={href("sources", source.id)}>
          Open
        </Button>
      </Group>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
