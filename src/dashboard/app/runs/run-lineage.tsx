import { Anchor, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { href } from "../router.ts";
import type { Run } from "./run-types.ts";

// Where a run came from (the run it replays or retries, on the run itself) and where it went (the
// runs that replay or retry it): the API links only one way, so the other is found among the
// workflow's newest runs, which is where a fix made a moment ago is.

const RECENT = 100;

function RunLink({ id }: { id: string }) {
  return (
    <Anchor href={href("runs", id)} ff="monospace" size="sm">
      {id}
    </Anchor>
  );
}

export function RunLineage({ run }: { run: Run }) {
  const { api } = useSession();
  const later = useQuery(async () => {
    const res = await api.GET("/v1/workflows/{id}/runs", { params: { path: { id: run.workflow_id }, query: { limit: RECENT } } });
    return (res.data?.data ?? []).filter((r) => r.replay_of === run.id || r.retry_of === run.id);
  }, [api, run.workflow_id, run.id, run.status]);
  const from = run.retry_of ? { what: "retry of", id: run.retry_of } : run.replay_of ? { what: "replay of", id: run.replay_of } : undefined;
  const after = later.data ?? [];
  if (!from && after.length === 0) return null;
  return (
    <Text size="sm" component="div" data-testid="run-lineage" style={{ gridColumn: "1 / -1", overflowWrap: "anywhere" }}>
      {from && (
        <div data-testid={run.retry_of ? "retry-of" : "replay-of"} data-lineage="from">
          <Text span c="dimmed" size="sm">
            This run is a {from.what}{" "}
          </Text>
          <RunLink id={from.id} />
        </div>
      )}
      {after.map((r) => (
        <div key={r.id} data-testid={r.retry_of === run.id ? "retried-as" : "replayed-as"} data-lineage="to">
          <Text span c="dimmed" size="sm">
            {r.retry_of === run.id ? "Retried as" : "Replayed as"}{" "}
          </Text>
          <RunLink id={r.id} /> <Text span size="sm">({r.status})</Text>
        </div>
      ))}
    </Text>
  );
}
