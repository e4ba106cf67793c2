import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSession } from "../session-context.ts";
import { dataOf } from "../api-error.ts";
import { POLL_MS, usePoll } from "./use-poll.ts";
import { compareIds, groupInvocations, type Invocation, type StreamEvent } from "./invocations.ts";

// A source's $errors and $logs streams, read newest first and kept live by reading their first
// pages again while the tab is shown (two streams to join: polling keeps that one simple request
// each). "Load older" reads each stream on from its oldest event shown.

const PAGE = 50;
const STREAMS = ["$errors", "$logs"] as const;
type Stream = (typeof STREAMS)[number];

interface Loaded {
  events: Map<string, StreamEvent>;
  /** the last page read from the oldest end was full: there may be more */
  older: boolean;
}

type Streams = Record<Stream, Loaded>;

const empty = (): Streams => ({ $errors: { events: new Map(), older: false }, $logs: { events: new Map(), older: false } });

/** `older`: what the page read says about more before it (undefined: a first page again, says nothing new) */
function add(old: Streams | undefined, stream: Stream, events: StreamEvent[], older: boolean | undefined): Streams {
  const base = old ?? empty();
  const next = new Map(base[stream].events);
  for (const e of events) next.set(e.id, e);
  return { ...base, [stream]: { events: next, older: older ?? base[stream].older } };
}

export function useInvocations(sourceId: string) {
  const { api } = useSession();
  const [streams, setStreams] = useState<Streams>();
  const [error, setError] = useState<Error>();
  const [loadingOlder, setLoadingOlder] = useState(false);
  // invocations that came in while the tab was open, marked new: what the first read found isn't
  const seen = useRef<Set<string>>(undefined);
  const arrived = useRef(new Set<string>());

  const read = useCallback(
    async (stream: Stream, after?: string): Promise<StreamEvent[]> =>
      dataOf(
        await api.GET("/v1/sources/{id}/event_summaries", {
          params: { path: { id: sourceId }, query: { limit: PAGE, expand: "event", event_name: stream, ...(after ? { after } : {}) } },
        }),
      ).data,
    [api, sourceId],
  );

  const refresh = useCallback(async () => {
    try {
      const [errors, logs] = await Promise.all(STREAMS.map((s) => read(s)));
      setStreams((old) => {
        // a first read also says whether there is more; later ones only add what is new
        const first = old === undefined;
        const withErrors = add(old, "$errors", errors, first ? errors.length === PAGE : undefined);
        return add(withErrors, "$logs", logs, first ? logs.length === PAGE : undefined);
      });
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    }
  }, [read]);

  useEffect(() => {
    setStreams(undefined);
    seen.current = undefined;
    arrived.current = new Set();
    void refresh();
  }, [refresh]);
  usePoll(refresh, POLL_MS, true);

  const loadOlder = useCallback(async () => {
    if (!streams) return;
    setLoadingOlder(true);
    try {
      for (const s of STREAMS) {
        if (!streams[s].older) continue;
        const oldest = [...streams[s].events.keys()].sort(compareIds)[0];
        const page = await read(s, oldest);
        setStreams((old) => add(old, s, page, page.length === PAGE));
      }
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      setLoadingOlder(false);
    }
  }, [read, streams]);

  // an invocation that didn't change keeps its object, so its (memoised) row isn't drawn again
  const previous = useRef(new Map<string, Invocation>());
  const invocations = useMemo<Invocation[] | undefined>(() => {
    if (!streams) return undefined;
    const next = groupInvocations(streams.$errors.events.values(), streams.$logs.events.values()).map((i) => {
      const old = previous.current.get(i.key);
      return old && JSON.stringify(old) === JSON.stringify(i) ? old : i;
    });
    previous.current = new Map(next.map((i) => [i.key, i]));
    return next;
  }, [streams]);
  const fresh = useMemo(() => {
    if (!invocations) return arrived.current;
    if (seen.current) for (const i of invocations) if (!seen.current.has(i.key)) arrived.current.add(i.key);
    seen.current = new Set(invocations.map((i) => i.key));
    return new Set(arrived.current);
  }, [invocations]);

  return { invocations, fresh, error, loadingOlder, hasOlder: !!streams && (streams.$errors.older || streams.$logs.older), loadOlder };
}
