import type { PageRequest, SourceRow } from "../store/port.ts";

// The source list is read far more than it changes, and a user's sources are few (hundreds),
// so each user's list is kept in memory, newest first, with every item already rendered as
// JSON. A write by this process drops the user's entry; entries also expire after `ttlMs` so
// writes made by another node (PostgreSQL deployments) show up within that time.

interface Entry {
  ids: string[];
  json: string[];
  position: Map<string, number>;
  expires: number;
}

export interface RenderedPage {
  /** items as JSON texts, in list order */
  json: string[];
  ids: string[];
  total: number;
}

const MAX_USERS = 1000;

export class SourceListCache {
  readonly #entries = new Map<string, Entry>();
  /** bumped on every invalidation, so a load that raced a write is not kept */
  readonly #generation = new Map<string, number>();
  readonly #load: (userId: string) => Promise<SourceRow[]>;
  readonly #render: (row: SourceRow) => Promise<string>;
  readonly #ttlMs: number;

  constructor(load: (userId: string) => Promise<SourceRow[]>, render: (row: SourceRow) => Promise<string>, ttlMs: number) {
    this.#load = load;
    this.#render = render;
    this.#ttlMs = ttlMs;
  }

  invalidate(userId: string): void {
    this.#entries.delete(userId);
    this.#generation.set(userId, (this.#generation.get(userId) ?? 0) + 1);
  }

  async #entry(userId: string): Promise<Entry> {
    const hit = this.#entries.get(userId);
    if (hit && hit.expires > Date.now()) return hit;
    const generation = this.#generation.get(userId) ?? 0;
    const rows = await this.#load(userId);
    const entry: Entry = {
      ids: rows.map((r) => r.id),
      json: await Promise.all(rows.map(this.#render)),
      position: new Map(rows.map((r, i) => [r.id, i])),
      expires: Date.now() + this.#ttlMs,
    };
    if ((this.#generation.get(userId) ?? 0) === generation) {
      if (this.#entries.size >= MAX_USERS) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(userId, entry);
    }
    return entry;
  }

  /** A page around a cursor (docs/api.md, "Pagination"), or undefined when the cursor isn't in the list. */
  async page(userId: string, page: PageRequest): Promise<RenderedPage | undefined> {
    const e = await this.#entry(userId);
    let start = 0;
    let end: number;
    if (page.afterId !== undefined) {
      const at = e.position.get(page.afterId);
      if (at === undefined) return undefined;
      start = at + 1;
      end = Math.min(e.ids.length, start + page.limit);
    } else if (page.beforeId !== undefined) {
      const at = e.position.get(page.beforeId);
      if (at === undefined) return undefined;
      end = at;
      start = Math.max(0, end - page.limit);
    } else {
      end = Math.min(e.ids.length, page.limit);
    }
    return { json: e.json.slice(start, end), ids: e.ids.slice(start, end), total: e.ids.length };
  }
}
