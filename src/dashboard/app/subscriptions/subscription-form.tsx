import { useState, type FormEvent } from "react";
import { Autocomplete, Button, Group, Paper, Select, Title } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { toastFailed } from "../ui/toasts.ts";
import type { Named } from "./use-named-ids.ts";

// A new subscription, picked by name: an emitter (a source or workflow), one of its streams, and a
// listener (a source, workflow or webhook). An id typed into a picker is used as it is, so a
// source past the first 100 can still be named.

const KIND_LABEL: Record<Named["kind"], string> = { source: "Sources", workflow: "Workflows", webhook: "Webhooks" };
const STREAMS = ["default", "$errors", "$logs"];

function options(items: Named[]) {
  const groups = new Map<string, Array<{ value: string; label: string }>>();
  for (const n of items) {
    const g = KIND_LABEL[n.kind];
    groups.set(g, [...(groups.get(g) ?? []), { value: n.id, label: `${n.name} (${n.id})` }]);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}

export function SubscriptionForm({ named, onCreated }: { named: Named[]; onCreated: () => Promise<void> }) {
  const { api } = useSession();
  const [emitter, setEmitter] = useState<string | null>(null);
  const [listener, setListener] = useState<string | null>(null);
  const [stream, setStream] = useState("default");
  const [error, setError] = useState<string>();
  const [search, setSearch] = useState({ emitter: "", listener: "" });

  // a typed id that isn't among the options is taken as it is
  const typed = (text: string) => (/^(dc|p|wh)_\w+$/.test(text.trim()) ? text.trim() : null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const emitter_id = emitter ?? typed(search.emitter);
    const listener_id = listener ?? typed(search.listener);
    if (!emitter_id || !listener_id) return setError("Pick an emitter and a listener (or type their ids).");
    const query = { emitter_id, listener_id, ...(stream.trim() && stream.trim() !== "default" ? { event_name: stream.trim() } : {}) };
    const res = await api.POST("/v1/subscriptions", { params: { query } });
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) return toastFailed("Subscribe", messageOf(res.error));
    setEmitter(null);
    setListener(null);
    setStream("default");
    await onCreated();
  };

  return (
    <Paper withBorder p="lg" component="form" onSubmit={create}>
      <Title order={5} mb="sm">
        New subscription
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Emitter"
          placeholder="a source or workflow"
          data={options(named.filter((n) => n.kind !== "webhook"))}
          value={emitter}
          onChange={setEmitter}
          searchable
          searchValue={search.emitter}
          onSearchChange={(v) => setSearch((s) => ({ ...s, emitter: v }))}
          nothingFoundMessage="None of that name: type its id"
          w={300}
          comboboxProps={{ withinPortal: true }}
        />
        <Autocomplete label="Stream" data={STREAMS} value={stream} onChange={setStream} w={140} />
        <Select
          label="Listener"
          placeholder="a source, workflow or webhook"
          data={options(named)}
          value={listener}
          onChange={setListener}
          searchable
          searchValue={search.listener}
          onSearchChange={(v) => setSearch((s) => ({ ...s, listener: v }))}
          nothingFoundMessage="None of that name: type its id"
          w={300}
          comboboxProps={{ withinPortal: true }}
        />
        <Button type="submit">Subscribe</Button>
      </Group>
      <ErrorAlert error={error} title="Not subscribed" />
    </Paper>
  );
}
