import { Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { InvocationRow } from "./invocation-row.tsx";
import { useInvocations } from "./use-invocations.ts";

/**
 * The Invocations tab of a source: one row per invocation that failed or logged (one that did
 * neither leaves nothing to show), newest first, its error and console lines together.
 */
export function SourceInvocations({ sourceId }: { sourceId: string }) {
  const { invocations, fresh, error, hasOlder, loadingOlder, loadOlder } = useInvocations(sourceId);
  const failed = invocations?.filter((i) => i.errors.length > 0).length ?? 0;
  return (
    <Stack gap="xs" data-testid="source-invocations">
      <Text size="sm" c="dimmed">
        {invocations && invocations.length > 0
          ? `${invocations.length} invocation${invocations.length === 1 ? "" : "s"} with errors or logs, ${failed} failed · newest first, refreshed live`
          : ""}
      </Text>
      <ErrorAlert error={error} title="Could not read the invocations" />
      {!invocations && !error && <Skeleton h={100} />}
      {invocations?.length === 0 && (
        <EmptyState
          title="No invocations to show"
          text="Each run of the source that throws or writes to the console appears here, its error and its log lines together. Run the source now, or send a request to its endpoint."
        />
      )}
      {invocations?.map((inv) => (
        <InvocationRow key={inv.key} inv={inv} fresh={fresh.has(inv.key)} />
      ))}
      {hasOlder && (
        <Group justify="center">
          <Button variant="default" size="xs" onClick={loadOlder} loading={loadingOlder}>
            Load older invocations
          </Button>
        </Group>
      )}
    </Stack>
  );
}
