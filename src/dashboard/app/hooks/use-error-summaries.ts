import { useEffect, useMemo } from "react";
import { useSession } from "../session-context.ts";
import { useQuery } from "./use-query.ts";
import { dataOf } from "../api-error.ts";
import type { paths } from "../../../client/schema.ts";

export type ErrorSummary = paths["/v1/users/me/error_summaries"]["get"]["responses"][200]["content"]["application/json"]["data"][number];

// Which of the shown sources and workflows fail (GET /v1/users/me/error_summaries), refreshed
// while the page is open and visible, so a failure that happens meanwhile shows without a reload.

const REFRESH_MS = 10_000;
/** a window event: something saw a new failure (a watched Run now), so every summary reloads */
export const ERRORS_CHANGED = "tributary:errors-changed";

export function useErrorSummaries(ids: string[]): Map<string, ErrorSummary> {
  const { api } = useSession();
  const key = ids.join(",");
  const q = useQuery(async () => {
    if (key === "") return [];
    return dataOf(await api.GET("/v1/users/me/error_summaries", { params: { query: { ids: key } } })).data;
  }, [api, key]);
  const { reload } = q;
  useEffect(() => {
    const timer = setInterval(() => {
      if (!document.hidden) void reload();
    }, REFRESH_MS);
    const now = () => void reload();
    window.addEventListener(ERRORS_CHANGED, now);
    return () => {
      clearInterval(timer);
      window.removeEventListener(ERRORS_CHANGED, now);
    };
  }, [reload]);
  return useMemo(() => new Map((q.data ?? []).map((s) => [s.id, s])), [q.data]);
}
