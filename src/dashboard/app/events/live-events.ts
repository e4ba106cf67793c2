import { useCallback, useEffect, useRef, useState } from "react";
import { EventSource } from "eventsource";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";

// An emitter's stream, newest first: the latest page from event_summaries, then live over SSE
// (GET /{sources|workflows}/{id}/sse). The browser's own EventSource can't send the dashboard's
// header, which the session cookie is taken with only (session.ts), so the `eventsource` package
// is given the session's fetch, which adds it. The first connection asks
// for everything after the newest event already shown (Last-Event-ID), so nothing committed in
// between is missed; reconnects carry the last id seen, and ids already shown are skipped.
// "Load older events" reads the page after the oldest one shown (event ids are the cursors).

export interface EventSummary {
  id: string;
  indexed_at_ms: number;
  event: unknown;
  metadata: { emit_id?: string; name?: string; emitter_id?: string; summary?: string; ts?: number };
  /** arrived over the stream while the page was open */
  live?: boolean;
}

export type Kind = "sources" | "workflows";
export type LiveState = "connecting" | "live" | "reconnecting" | "closed";

const PAGE = 50;
const MAX_SHOWN = 200;

export function useLiveEvents(kind: Kind, id: string, stream: string) {
  const { api, fetch: sessionFetch } = useSession();
  const [events, setEvents] = useState<EventSummary[]>([]);
  const [state, setState] = useState<LiveState>("connecting");
  const [error, setError] = useState<string>();
  const [loaded, setLoaded] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const seen = useRef(new Set<string>());

  const fetchPage = useCallback(
    async (after?: string) => {
      const query = { limit: PAGE, expand: "event", ...(stream ? { event_name: stream } : {}), ...(after ? { after } : {}) };
      return kind === "sources"
        ? await api.GET("/v1/sources/{id}/event_summaries", { params: { path: { id }, query } })
        : await api.GET("/v1/workflows/{id}/event_summaries", { params: { path: { id }, query } });
    },
    [api, kind, id, stream],
  );

  useEffect(() => {
    let es: EventSource | undefined;
    let cancelled = false;
    seen.current = new Set();
    setEvents([]);
    setLoaded(false);
    setHasOlder(false);
    setState("connecting");
    setError(undefined);

    const add = (items: EventSummary[], live: boolean) => {
      const fresh = items.filter((e) => !seen.current.has(e.id));
      if (fresh.length === 0) return;
      for (const e of fresh) seen.current.add(e.id);
      // at most MAX_SHOWN, or as many as were loaded with "Load older events"
      setEvents((old) => [...fresh.map((e) => (live ? { ...e, live } : e)), ...old].slice(0, Math.max(MAX_SHOWN, old.length)));
    };

    const start = async () => {
      const res = await fetchPage();
      if (cancelled) return;
      if (!res.data) {
        setError(messageOf(res.error));
        setState("closed");
        return;
      }
      add(res.data.data as EventSummary[], false);
      setHasOlder(res.data.data.length === PAGE);
      setLoaded(true);
      // "0-0" replays the whole retained stream: an empty page may have raced a first event
      const after = res.data.data[0]?.id ?? "0-0";
      const url = new URL(`/${kind}/${encodeURIComponent(id)}/sse`, location.origin);
      if (stream) url.searchParams.set("event_name", stream);
      es = new EventSource(url, {
        fetch: (input, init) => {
          const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
          if (!Object.keys(headers).some((h) => h.toLowerCase() === "last-event-id")) headers["Last-Event-ID"] = after;
          return sessionFetch(input, { ...init, headers });
        },
      });
      es.onopen = () => setState("live");
      es.onerror = () => setState(es?.readyState === EventSource.CLOSED ? "closed" : "reconnecting");
      es.onmessage = (m) => {
        try {
          add([{ ...(JSON.parse(m.data) as EventSummary), id: m.lastEventId }], true);
        } catch {
          // not a summary: ignored
        }
      };
    };
    void start();
    return () => {
      cancelled = true;
      es?.close();
    };
  }, [fetchPage, sessionFetch, kind, id, stream]);

  const loadOlder = useCallback(async () => {
    const oldest = events.at(-1)?.id;
    if (!oldest) return;
    setLoadingOlder(true);
    const res = await fetchPage(oldest);
    setLoadingOlder(false);
    if (!res.data) return setError(messageOf(res.error));
    const older = (res.data.data as EventSummary[]).filter((e) => !seen.current.has(e.id));
    for (const e of older) seen.current.add(e.id);
    setEvents((old) => [...old, ...older]);
    setHasOlder(res.data.data.length === PAGE);
  }, [events, fetchPage]);

  return { events, state, error, loaded, hasOlder, loadingOlder, loadOlder };
}
