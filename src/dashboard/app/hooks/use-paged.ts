import { useCallback, useEffect, useRef, useState } from "react";

// A paginated list of the API (limit + `after=<end_cursor>`, newest first): the first page, then
// "Load more" appends the next one. A reload after an action (delete, toggle) reads again from
// the top as many items as were shown, so the list doesn't shrink back to its first page.

export const PAGE_SIZE = 50;
/** the API's largest `limit` */
const MAX_LIMIT = 100;

export interface PageOf<T> {
  page_info: { total_count: number; count: number; start_cursor: string; end_cursor: string };
  data: T[];
}

/** An empty list, for a caller who may not list (a non-admin and the users). */
export const emptyPage = <T>(): PageOf<T> => ({ page_info: { total_count: 0, count: 0, start_cursor: "", end_cursor: "" }, data: [] });

export interface PageQuery {
  limit: number;
  after?: string;
}

export interface Paged<T> {
  data: T[] | undefined;
  total: number;
  error: Error | undefined;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  loadMore: () => Promise<void>;
  reload: () => Promise<void>;
}

interface Loaded<T> {
  items: T[];
  total: number;
  cursor: string;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

export function usePaged<T extends { id: string }>(load: (q: PageQuery) => Promise<PageOf<T>>, deps: unknown[]): Paged<T> {
  const [state, setState] = useState<Loaded<T>>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const shown = useRef(0);
  const run = useCallback(load, deps);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const want = Math.max(PAGE_SIZE, shown.current);
      const next: Loaded<T> = { items: [], total: 0, cursor: "" };
      do {
        const p = await run({ limit: Math.min(MAX_LIMIT, want - next.items.length), ...(next.cursor ? { after: next.cursor } : {}) });
        next.items.push(...p.data);
        next.total = p.page_info.total_count;
        next.cursor = p.page_info.end_cursor;
        if (p.data.length === 0) break;
      } while (next.items.length < want && next.items.length < next.total);
      if (mine !== generation.current) return;
      shown.current = next.items.length;
      setState(next);
      setError(undefined);
    } catch (err) {
      if (mine === generation.current) setError(asError(err));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [run]);

  const loadMore = useCallback(async () => {
    if (!state?.cursor) return;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const p = await run({ limit: PAGE_SIZE, after: state.cursor });
      // a reload started meanwhile wins
      if (mine !== generation.current) return;
      const have = new Set(state.items.map((i) => i.id));
      const items = [...state.items, ...p.data.filter((i) => !have.has(i.id))];
      shown.current = items.length;
      setState({ items, total: p.page_info.total_count, cursor: p.page_info.end_cursor || state.cursor });
      setError(undefined);
    } catch (err) {
      setError(asError(err));
    } finally {
      setLoadingMore(false);
    }
  }, [run, state]);

  useEffect(() => {
    shown.current = 0;
    void reload();
  }, [reload]);

  return {
    data: state?.items,
    total: state?.total ?? 0,
    error,
    loading,
    loadingMore,
    hasMore: !!state && state.items.length < state.total && state.cursor !== "",
    loadMore,
    reload,
  };
}
