import { useCallback, useEffect, useRef, useState } from "react";
import { useSession } from "../session-context.ts";
import { dataOf } from "../api-error.ts";
import type { PageOf, Paged } from "../hooks/use-paged.ts";
import { POLL_MS, usePoll } from "./use-poll.ts";
import type { Run, RunStatus } from "./run-types.ts";

// A workflow's runs, newest first, kept live by asking for the first page again: new runs come in
// on top, runs on it that changed (a running one ended) are replaced, and everything else keeps
// its object, so rows that didn't change don't re-render and rows loaded with "Load more" stay.

const PAGE = 50;

interface State {
  runs: Run[];
  total: number;
  /** where "Load more" goes on */
  cursor: string;
  /** runs that arrived while the list was open (highlighted) */
  fresh: ReadonlySet<string>;
}

const same = (a: Run, b: Run) => JSON.stringify(a) === JSON.stringify(b);

function merge(old: State | undefined, page: PageOf<Run>): State {
  const known = new Map(old?.runs.map((r) => [r.id, r]));
  const top = page.data.map((r) => {
    const o = known.get(r.id);
    return o && same(o, r) ? o : r;
  });
  const fresh = new Set(old?.fresh);
  if (old) for (const r of page.data) if (!known.has(r.id)) fresh.add(r.id);
  const total = page.page_info.total_count;
  const whole = page.data.length >= total;
  // what was shown past the first page follows its last run; if that run isn't shown (a burst of
  // new runs, a filter it now matches), the first page starts over
  const k = old && !whole && page.data.length > 0 ? old.runs.findIndex((r) => r.id === page.data.at(-1)!.id) : -1;
  if (!old || k < 0) return { runs: top, total, cursor: page.page_info.end_cursor, fresh };
  const onTop = new Set(page.data.map((r) => r.id));
  return { runs: [...top, ...old.runs.slice(k + 1).filter((r) => !onTop.has(r.id))], total, cursor: old.cursor, fresh };
}

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

export function useLiveRuns(workflowId: string, status: RunStatus | undefined): Paged<Run> & { fresh: ReadonlySet<string> } {
  const { api } = useSession();
  const [state, setState] = useState<State>();
  const [error, setError] = useState<Error>();
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (after?: string): Promise<PageOf<Run>> =>
      dataOf(await api.GET("/v1/workflows/{id}/runs", { params: { path: { id: workflowId }, query: { limit: PAGE, ...(status ? { status } : {}), ...(after ? { after } : {}) } } })),
    [api, workflowId, status],
  );

  const refresh = useCallback(async () => {
    const mine = generation.current;
    try {
      const page = await fetchPage();
      if (mine !== generation.current) return;
      setState((old) => merge(old, page));
      setError(undefined);
    } catch (e) {
      if (mine === generation.current) setError(asError(e));
    }
  }, [fetchPage]);

  useEffect(() => {
    // another filter: another list, and answers still on their way for the last one are dropped
    generation.current++;
    setState(undefined);
    setError(undefined);
    void refresh();
  }, [refresh]);

  usePoll(refresh, POLL_MS, true);

  const loadMore = useCallback(async () => {
    if (!state?.cursor) return;
    const from = state.cursor;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const page = await fetchPage(from);
      if (mine !== generation.current) return;
      setState((old) => {
        // a refresh that started the list over meanwhile wins
        if (!old || old.cursor !== from) return old;
        const have = new Set(old.runs.map((r) => r.id));
        return { ...old, runs: [...old.runs, ...page.data.filter((r) => !have.has(r.id))], total: page.page_info.total_count, cursor: page.page_info.end_cursor || from };
      });
    } catch (e) {
      setError(asError(e));
    } finally {
      setLoadingMore(false);
    }
  }, [fetchPage, state?.cursor]);

  return {
    data: state?.runs,
    total: state?.total ?? 0,
    error,
    loading: !state && !error,
    loadingMore,
    hasMore: !!state && state.runs.length < state.total && state.cursor !== "",
    loadMore,
    reload: refresh,
    fresh: state?.fresh ?? new Set(),
  };
}
