import type { EventKey, Store, UserRow } from "../store/port.ts";
import { invalid } from "../lib/errors.ts";
import { eventId, parseEventId, renderItem } from "./event-render.ts";
import { errorSummary, type ErrorSummary } from "./error-summaries.ts";

// Reading and deleting the events of a source or workflow (docs/api.md, "Events"). Lists are newest first by id, their
// cursors are raw event ids, and items come out already rendered as JSON.

export interface EventQuery {
  limit: number;
  after?: string;
  before?: string;
  eventName?: string;
  expand?: string;
}

function key(field: string, raw: string | undefined): EventKey | undefined {
  if (raw === undefined || raw === "") return undefined;
  const k = parseEventId(raw);
  if (!k) throw invalid(`${field} is not an event id`, [{ field, message: 'must be an event id like "1606511826306-0"' }]);
  return k;
}

/** Emitter kinds, each with its check that the user owns one (404 otherwise). */
export type Owners = Record<"source" | "workflow", (user: UserRow, id: string) => Promise<unknown>>;

export class Events {
  readonly #store: Store;
  readonly #owners: Owners;
  readonly #lastKey: (emitterId: string) => EventKey | undefined;

  constructor(store: Store, owners: Owners, lastKey: (emitterId: string) => EventKey | undefined) {
    this.#store = store;
    this.#owners = owners;
    this.#lastKey = lastKey;
  }

  /** the page as JSON text: {page_info, data} */
  async page(user: UserRow, kind: keyof Owners, sourceId: string, q: EventQuery): Promise<string> {
    await this.#owners[kind](user, sourceId);
    const after = key("after", q.after);
    const before = key("before", q.before);
    if (after && before) throw invalid("use either after or before, not both", [{ field: "before", message: "conflicts with after" }]);
    const name = q.eventName === "default" ? "" : (q.eventName ?? "");
    const full = q.expand === "event";
    const { items, total } = await this.#store.events.page(sourceId, name, { limit: q.limit, after, before });
    const ids = items.map(eventId);
    const info = {
      total_count: total,
      count: items.length,
      start_cursor: ids[0] ?? "",
      end_cursor: ids[ids.length - 1] ?? "",
    };
    return `{"page_info":${JSON.stringify(info)},"data":[${items.map((e) => renderItem(e, full)).join(",")}]}`;
  }

  /**
   * How the user's emitters among `ids` fail: those with $errors events, with their count and
   * newest error. Ids that aren't the user's are left out, as ones without errors are.
   */
  async errorSummaries(user: UserRow, ids: string[]): Promise<ErrorSummary[]> {
    return (await this.#store.events.errorSummaries(user.id, ids)).map(errorSummary);
  }

  /** Retained events after `from`, oldest first, rendered in full (SSE replay). */
  async since(emitterId: string, eventName: string, from: EventKey, limit: number) {
    const rows = await this.#store.events.since(emitterId, eventName, from, limit);
    return rows.map((r) => ({ ms: r.ms, n: r.n, item: renderItem(r, true) }));
  }

  /**
   * Deletes the source's events between the inclusive bounds, in the background (202). Events
   * emitted after this call are never touched: the deletion stops at the newest id of now.
   */
  async delete(user: UserRow, sourceId: string, startId?: string, endId?: string): Promise<void> {
    await this.#owners.source(user, sourceId);
    const start = key("start_id", startId);
    const end = key("end_id", endId);
    const upTo = this.#lastKey(sourceId) ?? { ms: Date.now(), n: Number.MAX_SAFE_INTEGER };
    setImmediate(() => {
      this.#store.events.deleteRange(sourceId, start, end, upTo).catch(() => {
        // the store is failing; the client was told "accepted", and the events stay until retried
      });
    });
  }
}
