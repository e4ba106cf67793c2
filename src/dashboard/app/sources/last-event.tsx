import { Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { dataOf } from "../api-error.ts";
import { ago, formatWhen } from "../time-format.ts";

/** When a source last emitted (its newest event), or "none yet". */
export function LastEvent({ id }: { id: string }) {
  const { api } = useSession();
  const q = useQuery(async () => dataOf(await api.GET("/v1/sources/{id}/event_summaries", { params: { path: { id }, query: { limit: 1 } } })).data[0], [api, id]);
  if (q.loading && !q.data) return <Text size="sm" c="dimmed">…</Text>;
  if (!q.data) return <Text size="sm" c="dimmed">none yet</Text>;
  return (
    <Text size="sm" title={formatWhen(q.data.indexed_at_ms)}>
      {ago(q.data.indexed_at_ms)}
    </Text>
  );
}
