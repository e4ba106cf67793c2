import type { TributaryClient as Client } from "../../../client/index.ts";
import { toastFailed } from "../ui/toasts.ts";
import { ERRORS_CHANGED } from "../hooks/use-error-summaries.ts";

// "Run now" is accepted at once (202) and runs in the background, so its failure would otherwise
// go unseen: for a while after the request, the source's newest error is watched, and a new one
// is a toast with its message. Times are compared as the service wrote them (no browser clock).

const WATCH_MS = 15_000;
const EVERY_MS = 1000;

async function newestError(api: Client, id: string): Promise<{ at: number; text: string } | undefined> {
  const { data } = await api.GET("/v1/users/me/error_summaries", { params: { query: { ids: id } } });
  const s = data?.data[0];
  return s ? { at: s.last_error.at_ms, text: `${s.last_error.name}: ${s.last_error.message}` } : undefined;
}

/** Call before the run request; the returned function, after it was accepted, starts watching. */
export async function watchRunOutcome(api: Client, id: string, name: string): Promise<() => void> {
  const before = (await newestError(api, id).catch(() => undefined))?.at ?? 0;
  return () => {
    const until = Date.now() + WATCH_MS;
    const check = async () => {
      const now = await newestError(api, id).catch(() => undefined);
      if (now && now.at > before) {
        window.dispatchEvent(new Event(ERRORS_CHANGED));
        return toastFailed(`${name}: the run`, now.text);
      }
      if (Date.now() < until && !document.hidden) setTimeout(() => void check(), EVERY_MS);
    };
    setTimeout(() => void check(), EVERY_MS / 2);
  };
}
