import { api } from "../profile.ts";
import { ago, CliError, colors, errColors, printable, printJson, printTable, unwrap } from "../output.ts";

// `events ID` and `logs ID` (the $logs stream): the latest page, or with -f that page and then a
// live tail of the SSE stream that reconnects with Last-Event-ID after a dropped connection
// (eventsource does that).

export interface Summary { id: string; indexed_at_ms?: number; event?: unknown; metadata?: { name?: string; summary?: string; ts?: number } }

function kindOf(id: string): "sources" | "workflows" {
  if (id.startsWith("p_")) return "workflows";
  if (id.startsWith("dc_")) return "sources";
  throw new CliError(`not a source or workflow id: ${id}`, "source ids start with dc_, workflow ids with p_");
}

/** a $logs event's lines as text, an $errors event's error, else the summary or the event's JSON; safe for a terminal */
export function text(s: Summary): string {
  const ev = s.event as { lines?: { level?: string; msg?: string }[]; error?: ErrorEntry } | undefined;
  if (ev && Array.isArray(ev.lines)) return printable(ev.lines.map((l) => (l.level && l.level !== "log" ? `[${l.level}] ` : "") + (l.msg ?? "")).join("\n"));
  // the error comes first: the event it failed on would fill the row before it
  const error = errorText(ev?.error);
  if (error) return printable(error);
  return printable(s.metadata?.summary ?? JSON.stringify(s.event) ?? "");
}

// a workflow's $errors entry says {code, msg, step}; a source's {name, message}
interface ErrorEntry { code?: string; msg?: string; step?: string | null; name?: string; message?: string }

function errorText(e: ErrorEntry | undefined): string | undefined {
  if (!e || typeof e !== "object") return undefined;
  const message = e.msg ?? e.message;
  if (typeof message !== "string") return undefined;
  return `${e.step ? `step ${e.step}: ` : ""}${e.code ?? e.name ?? "Error"}: ${message}`;
}

function line(s: Summary, json?: boolean): string {
  if (json) return JSON.stringify(s);
  const t = s.metadata?.ts ?? s.indexed_at_ms;
  const body = text(s);
  return `${colors.dim(t ? new Date(t).toISOString() : s.id)} ${body}`;
}

/** the newest events of the stream (newest first) */
async function latest(kind: "sources" | "workflows", id: string, stream: string | undefined, limitOpt: string | undefined): Promise<Summary[]> {
  const { client } = api();
  const limit = limitOpt ? Number(limitOpt) : undefined;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new CliError(`--limit ${limitOpt}: expected a positive integer`, "e.g. --limit 20 (at most 100)");
  const query = { expand: "event", ...(limit ? { limit } : {}), ...(stream ? { event_name: stream } : {}) };
  const res =
    kind === "sources"
      ? await client.GET("/v1/sources/{id}/event_summaries", { params: { path: { id }, query } })
      : await client.GET("/v1/workflows/{id}/event_summaries", { params: { path: { id }, query } });
  return (unwrap(res) as { data: Summary[] }).data;
}

export async function events(id: string, opts: { follow?: boolean; stream?: string; limit?: string; json?: boolean }): Promise<void> {
  const kind = kindOf(id);
  const rows = await latest(kind, id, opts.stream, opts.limit);
  if (opts.follow) {
    // as `tail -f`: the latest events first (oldest of them first), then the stream from the
    // newest of them on, so nothing that comes meanwhile is missed or printed twice
    for (const s of [...rows].reverse()) process.stdout.write(line(s, opts.json) + "\n");
    // an empty stream: from its very start ("0-0"), so an event that comes meanwhile is not missed
    return tail(kind, id, opts.stream, opts.json, undefined, undefined, rows[0]?.id ?? "0-0");
  }
  if (opts.json) return printJson(rows);
  printTable(
    ["ID", "WHEN", "EVENT"],
    rows.map((s) => {
      const body = text(s);
      return [s.id, ago(s.metadata?.ts ?? s.indexed_at_ms), body.length > 100 ? body.slice(0, 97) + "..." : body];
    }),
  );
}

export async function tail(
  kind: "sources" | "workflows",
  id: string,
  stream: string | undefined,
  json: boolean | undefined,
  onEvent?: (s: Summary) => void,
  signal?: AbortSignal,
  /** the id of the last event already shown: the stream starts after it (else: from now) */
  after?: string,
): Promise<void> {
  const { profile } = api();
  const { EventSource } = await import("eventsource");
  const url = new URL(`${profile.url}/${kind}/${encodeURIComponent(id)}/sse`);
  if (stream) url.searchParams.set("event_name", stream);
  let fatal: CliError | undefined;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const es = new EventSource(url, {
    fetch: async (input, init) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${profile.key}`);
      // on a reconnect the client names the last event it got; the first connection starts after `after`
      if (after && !headers.has("last-event-id")) headers.set("last-event-id", after);
      const res = await fetch(input, { ...init, headers });
      if (res.status === 401 || res.status === 403 || res.status === 404) {
        const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
        fatal = new CliError(body?.error?.message ?? `HTTP ${res.status}`, res.status === 404 ? "check the id" : "check the key");
      }
      return res;
    },
  });
  if (!signal) es.onopen = () => process.stderr.write(errColors.dim(`following ${id}${stream ? ` (${stream})` : ""}; Ctrl-C to stop`) + "\n");
  es.onmessage = (m) => {
    let s: Summary;
    try {
      s = JSON.parse(m.data) as Summary;
    } catch {
      s = { id: m.lastEventId, event: m.data };
    }
    if (onEvent) onEvent(s);
    else process.stdout.write(line(s, json) + "\n");
  };
  es.onerror = () => {
    if (fatal || es.readyState === es.CLOSED) {
      es.close();
      done();
    } else if (!signal) process.stderr.write(errColors.dim("connection lost; reconnecting...") + "\n");
  };
  const stop = () => {
    es.close();
    done();
  };
  if (signal) signal.addEventListener("abort", stop, { once: true });
  else {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  }
  await finished;
  if (fatal) throw fatal;
}

export function logs(id: string, opts: { follow?: boolean; limit?: string; json?: boolean }): Promise<void> {
  return events(id, { ...opts, stream: "$logs" });
}
