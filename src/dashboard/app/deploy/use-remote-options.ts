import { useEffect, useRef, useState } from "react";
import { useSession } from "../session-context.ts";
import { loadOptions, type Option } from "./props-api.ts";
import type { PropDef } from "./prop-types.ts";
import { usePropsSource } from "./props-source.ts";

// A prop's options from its component's options() (docs/writing-components.md, "Dynamic props"), page by page. Asked while
// `active` (the list is open) and not `waiting`: at once when opened, again when what they are
// asked with changes (the other props, or the search, after a pause while typing).

const SEARCH_DELAY_MS = 250;

export interface RemoteOptions {
  options: Option[];
  /** there are more: `more()` asks for the next page */
  hasMore: boolean;
  loading: boolean;
  failed?: string;
  more: () => void;
}

export function useRemoteOptions(componentId: string, prop: PropDef, configured: Record<string, unknown>, query: string, active: boolean, waiting: boolean): RemoteOptions {
  const { fetch } = useSession();
  const sourceId = usePropsSource();
  const [options, setOptions] = useState<Option[]>([]);
  const [context, setContext] = useState<Record<string, unknown>>();
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string>();
  /** the inputs the list shown was loaded for (and its search): another list is asked when they change */
  const loadedFor = useRef<string | undefined>(undefined);
  const loadedQuery = useRef("");
  const generation = useRef(0);
  const search = prop.useQuery ? query : "";
  const wanted = `${JSON.stringify(configured)}\n${search}`;

  const load = async (more: boolean) => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const page = await loadOptions(fetch, componentId, prop.name, {
        configured_props: configured,
        ...(sourceId ? { source_id: sourceId } : {}),
        ...(search ? { query: search } : {}),
        ...(more && context ? { prev_context: context } : {}),
      });
      if (mine !== generation.current) return;
      setOptions((old) => (more ? [...old, ...page.options] : page.options));
      setContext(page.context);
      setFailed(undefined);
    } catch (e) {
      if (mine === generation.current) setFailed((e as Error).message);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  };

  useEffect(() => {
    if (!active || waiting || loadedFor.current === wanted) return;
    // a new search waits for the typing to pause; an opened list (or other props) is asked at once
    const typing = search !== loadedQuery.current;
    const timer = setTimeout(() => {
      loadedFor.current = wanted;
      loadedQuery.current = search;
      void load(false);
    }, typing ? SEARCH_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [active, waiting, wanted]);

  return { options, hasMore: context !== undefined, loading, ...(failed ? { failed } : {}), more: () => void load(true) };
}
