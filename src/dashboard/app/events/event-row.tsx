import { memo, useState } from "react";
import { formatWhen } from "../time-format.ts";
import { Badge, Group, Paper, Text, UnstyledButton } from "@mantine/core";
import { JsonView } from "../ui/json-view.tsx";
import type { EventSummary } from "./live-events.ts";

// One event of the inspector: a line (time, summary), opened to its JSON. Memoised on the event
// object, so a new event arriving above re-renders nothing here.

const time = formatWhen;

/** An $errors event's error (a source's {name, message}, a workflow's {code, msg, step}) in a line. */
function errorLine(ev: unknown): string | undefined {
  const err = (ev as { error?: Record<string, unknown> } | null)?.error;
  if (!err || typeof err !== "object") return undefined;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const message = str(err.message) ?? str(err.msg);
  if (message === undefined) return undefined;
  const step = str(err.step);
  return `${step ? `step ${step}: ` : ""}${str(err.name) ?? str(err.code) ?? "Error"}: ${message}`;
}

/** A $logs event's lines ({lines: [{level, msg}]}): the first, and how many more. */
function logLine(ev: unknown): string | undefined {
  const lines = (ev as { lines?: unknown } | null)?.lines;
  if (!Array.isArray(lines) || lines.length === 0) return undefined;
  const first = lines[0] as { msg?: unknown; level?: unknown };
  if (typeof first?.msg !== "string") return undefined;
  const level = typeof first.level === "string" && first.level !== "log" ? `[${first.level}] ` : "";
  return `${level}${first.msg}${lines.length > 1 ? `  (+${lines.length - 1} more)` : ""}`;
}

function preview(e: EventSummary): string {
  if (e.metadata?.summary) return e.metadata.summary;
  // an error or a run's log lines: their message, not the start of their JSON
  const said = errorLine(e.event) ?? logLine(e.event);
  if (said !== undefined) return said.length > 140 ? said.slice(0, 140) + "…" : said;
  // an HTTP source's event: the request line and its body say more than its headers
  const http = e.event as { method?: unknown; path?: unknown; body?: unknown } | null;
  const text =
    http && typeof http.method === "string" && typeof http.path === "string"
      ? `${http.method} ${http.path} ${http.body === undefined ? "" : JSON.stringify(http.body)}`
      : JSON.stringify(e.event);
  return text.length > 140 ? text.slice(0, 140) + "…" : text;
}

export const EventRow = memo(function EventRow({ event }: { event: EventSummary }) {
  const [open, setOpen] = useState(false);
  return (
    <Paper withBorder p={0} className={event.live ? "event-new" : undefined} data-testid="event-row" data-event-id={event.id}>
      <UnstyledButton onClick={() => setOpen(!open)} w="100%" px="md" py="xs" aria-expanded={open}>
        <Group gap="sm" wrap="nowrap">
          <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }} w={150}>
            {time(event.indexed_at_ms)}
          </Text>
          {event.live && (
            <Badge size="xs" color="yellow" variant="light">
              new
            </Badge>
          )}
          <Text size="sm" ff="monospace" truncate="end" style={{ flex: 1, minWidth: 0 }}>
            {preview(event)}
          </Text>
          <Text size="xs" c="dimmed">
            {open ? "▾" : "▸"}
          </Text>
        </Group>
      </UnstyledButton>
      {open && (
        <Paper px="md" pb="sm" pt={4} bg="gray.0" radius={0} data-testid="event-detail">
          <JsonView value={event.event} openDepth={3} />
          <Text size="xs" c="dimmed" mt="xs">
            id {event.id}
            {event.metadata?.emit_id ? ` · emit ${event.metadata.emit_id}` : ""}
          </Text>
        </Paper>
      )}
    </Paper>
  );
});
