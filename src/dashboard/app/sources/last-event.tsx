import { Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../use-query.ts";
import { dataOf } from "../api-error.ts";

const ago = (ms: number): string => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 10) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
};

/** When a source last emitted (its newest event), or "none yet". */
export function LastEvent({ id }: { id: string }) {
  const { api } = useSession();
  const q = useQuery(async () => dataOf(await api.GET("/v1/sources/{id}/event_summaries", { params: { path: { id }, query: { limit: 1 } } })).data[0], [api, id]);
  if (q.loading && !q.data) return <Text size="sm" c="dimmed">…</Text>;
  if (!q.data) return <Text size="sm" c="dimmed">none yet</Text>;
  return (
    <Text size="sm" title={new Date(q.data.indexed_at_ms).toLocaleString()}>
      {ago(q.data.indexed_at_ms)}
    </Text>
  );
}
