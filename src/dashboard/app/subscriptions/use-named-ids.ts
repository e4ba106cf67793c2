import { useMemo } from "react";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";

// The user's sources, workflows and webhooks by id, so subscriptions read as names and are made by
// picking from lists. The first 100 of each kind: a longer list is searched by typing the id.

export interface Named {
  id: string;
  name: string;
  kind: "source" | "workflow" | "webhook";
}

export function useNamedIds(): { byId: Map<string, Named>; all: Named[] } {
  const { api } = useSession();
  const q = useQuery(async () => {
    const query = { params: { query: { limit: 100 } } };
    const [sources, workflows, webhooks] = await Promise.all([
      api.GET("/v1/users/me/sources/", query),
      api.GET("/v1/users/me/workflows", query),
      api.GET("/v1/users/me/webhooks", query),
    ]);
    return [
      ...(sources.data?.data ?? []).map((s): Named => ({ id: s.id, name: s.name, kind: "source" })),
      ...(workflows.data?.data ?? []).map((w): Named => ({ id: w.id, name: w.name, kind: "workflow" })),
      ...(webhooks.data?.data ?? []).map((w): Named => ({ id: w.id, name: w.name || w.url, kind: "webhook" })),
    ];
  }, [api]);
  return useMemo(() => {
    const all = q.data ?? [];
    return { all, byId: new Map(all.map((n) => [n.id, n])) };
  }, [q.data]);
}
