import { Badge, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { EventRow } from "./event-row.tsx";
import { useLiveEvents, type Kind, type LiveState } from "./live-events.ts";

const STATE: Record<LiveState, { color: string; label: string }> = {
  connecting: { color: "gray", label: "connecting" },
  live: { color: "green", label: "live" },
  reconnecting: { color: "orange", label: "reconnecting" },
  closed: { color: "red", label: "not connected" },
};

/** The live inspector of one stream ("" = the default stream, "$errors", "$logs"). */
export function EventInspector({ kind, id, stream, empty }: { kind: Kind; id: string; stream: string; empty: { title: string; text: string } }) {
  const { events, state, error, loaded, hasOlder, loadingOlder, loadOlder } = useLiveEvents(kind, id, stream);
  const s = STATE[state];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {events.length > 0 ? `${events.length} event${events.length === 1 ? "" : "s"}, newest first` : ""}
        </Text>
        <Badge color={s.color} variant="dot" data-testid="live-state" data-state={state}>
          {s.label}
        </Badge>
      </Group>
      <ErrorAlert error={error} title="Could not read the events" />
      {!loaded && !error && <Loader size="sm" />}
      {loaded && events.length === 0 && <EmptyState title={empty.title} text={empty.text} />}
      {events.map((e) => (
        <EventRow key={e.id} event={e} />
      ))}
      {hasOlder && (
        <Group justify="center">
          <Button variant="default" size="xs" onClick={loadOlder} loading={loadingOlder}>
            Load older events
          </Button>
        </Group>
      )}
    </Stack>
  );
}
