import { useMemo } from "react";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";

/** Component id → name, over the caller's own components and the registry's. */
export function useComponentNames(): Map<string, string> {
  const { api } = useSession();
  const q = useQuery(async () => {
    const [mine, registry] = await Promise.all([
      api.GET("/v1/users/me/components", { params: { query: { limit: 100 } } }),
      api.GET("/v1/components/registry", { params: { query: { limit: 100 } } }),
    ]);
    return [...(mine.data?.data ?? []), ...(registry.data?.data ?? [])];
  }, [api]);
  return useMemo(() => new Map((q.data ?? []).map((c) => [c.id, c.name])), [q.data]);
}
