import { useCallback, useEffect, useRef, useState } from "react";

// Loads data for a page and reloads it on demand (after an action). While reloading, the old
// data stays on screen: lists don't blink to a loader and back.

export interface Query<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

export function useQuery<T>(load: () => Promise<T>, deps: unknown[]): Query<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const d = await run();
      if (mine === generation.current) {
        setData(d);
        setError(undefined);
      }
    } catch (err) {
      if (mine === generation.current) setError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}
