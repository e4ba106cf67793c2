import type { PageRequest } from "../store/port.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { invalid } from "../lib/errors.ts";

export interface PagingQuery {
  limit?: number;
  after?: string;
  before?: string;
}

/** Resource-list paging from the query; an empty cursor is the same as none (docs/api.md, "Pagination"). */
export function pageRequest(q: PagingQuery): PageRequest {
  if (q.after && q.before) {
    throw invalid("use either after or before, not both", [{ field: "before", message: "conflicts with after" }]);
  }
  const decode = (field: "after" | "before") => {
    const raw = q[field];
    if (!raw) return undefined;
    const id = decodeCursor(raw);
    if (!id) throw invalid(`${field} is not a valid cursor`, [{ field, message: "is not a valid cursor" }]);
    return id;
  };
  return { limit: q.limit ?? 10, afterId: decode("after"), beforeId: decode("before") };
}

export function pageEnvelope<T extends { id: string }, V>(items: T[], total: number, view: (item: T) => V) {
  return { page_info: pageInfo(items.map((i) => i.id), total), data: items.map(view) };
}

function pageInfo(ids: string[], total: number) {
  return {
    total_count: total,
    count: ids.length,
    start_cursor: ids.length ? encodeCursor(ids[0]) : "",
    end_cursor: ids.length ? encodeCursor(ids[ids.length - 1]) : "",
  };
}

/** The same envelope from items already rendered as JSON (the cached source list). */
export function renderedPageEnvelope(json: string[], ids: string[], total: number): string {
  return `{"page_info":${JSON.stringify(pageInfo(ids, total))},"data":[${json.join(",")}]}`;
}
