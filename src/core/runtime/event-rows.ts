import type { EmitterStateRow, EventKey, EventRow, SourceRow, Store } from "../../store/port.ts";
import { newId } from "../../lib/ids.ts";
import type { Target } from "./target.ts";

// Each emitter's state (db, dedupe memory, last event id) as the commits leave it, kept in
// memory between invocations, and the event rows made from it: ids that never go backwards,
// and the trims that hold each stream to its retention.

export interface CachedState {
  row: EmitterStateRow;
  /** changes whenever the state is loaded again, so a runner knows its own copy is stale */
  epoch: number;
}

let epochs = 0;

export class EventRows {
  readonly #store: Store;
  readonly #retention: number;
  readonly #states = new Map<string, Promise<CachedState>>();
  /** the newest id given out per emitter, readable without waiting */
  readonly #known = new Map<string, EventKey>();
  readonly #sinceTrim = new Map<string, number>();

  constructor(store: Store, retention: number) {
    this.#store = store;
    this.#retention = retention;
  }

  state(source: SourceRow): Promise<CachedState> {
    let cached = this.#states.get(source.id);
    if (!cached) {
      cached = this.#store.events.state(source.id).then((row) => ({
        row: row ?? { emitter_id: source.id, user_id: source.user_id, db: {}, dedupe: {}, last_ms: 0, last_n: -1 },
        epoch: ++epochs,
      }));
      this.#states.set(source.id, cached);
      cached.catch(() => this.#states.delete(source.id));
    }
    return cached;
  }

  /** the commit writes the state as it is now, not as later invocations will leave it */
  snapshot(state: CachedState): EmitterStateRow {
    const s = state.row;
    return { ...s, dedupe: { ...s.dedupe, ...(s.dedupe.ids ? { ids: s.dedupe.ids.slice() } : {}) } };
  }

  lastKey(emitterId: string): EventKey | undefined {
    return this.#known.get(emitterId);
  }

  /** a commit failed: the next invocation starts again from what the store has */
  reload(emitterId: string): void {
    this.#states.delete(emitterId);
  }

  /** Forgets what is known of the emitters `which` picks: another node may have written since. */
  reloadWhere(which: (emitterId: string) => boolean): void {
    for (const id of [...this.#states.keys()]) if (which(id)) this.#states.delete(id);
    for (const id of [...this.#known.keys()]) if (which(id)) this.#known.delete(id);
  }

  forget(emitterId: string): void {
    this.#states.delete(emitterId);
    this.#known.delete(emitterId);
  }

  // Ids never go backwards for one emitter, even when the clock does (docs/api.md, "Events").
  event(t: Target, state: CachedState, name: string, json: string, meta: { id?: string | number; summary?: string; ts?: number }, now: number): EventRow {
    const s = state.row;
    const ms = Math.max(now, s.last_ms);
    const n = ms === s.last_ms ? s.last_n + 1 : 0;
    s.last_ms = ms;
    s.last_n = n;
    this.#known.set(t.source.id, { ms, n });
    return {
      emitter_id: t.source.id,
      user_id: t.source.user_id,
      event_name: name,
      ms,
      n,
      emit_id: newId(""),
      indexed_at_ms: now,
      payload: json,
      size: Buffer.byteLength(json),
      meta: {
        ...(meta.id !== undefined ? { id: meta.id } : {}),
        ...(meta.summary !== undefined ? { summary: meta.summary } : {}),
        ts: meta.ts ?? now,
      },
    };
  }

  /** the trims owed by the streams these rows were added to */
  trims(emitterId: string, rows: EventRow[]) {
    const perStream = new Map<string, number>();
    for (const e of rows) perStream.set(e.event_name, (perStream.get(e.event_name) ?? 0) + 1);
    return [...perStream].flatMap(([name, n]) => this.#trim(emitterId, name, n) ?? []);
  }

  // Trimming finds its cut with OFFSET keep, which costs `keep` index steps. Small retentions
  // (the default 100) are trimmed on every write, exactly; large ones once per keep/10 writes, so
  // a stream may briefly hold up to 10% more than it keeps.
  #trim(emitterId: string, eventName: string, added: number) {
    const keep = this.#retention;
    if (keep > 1000) {
      const key = `${emitterId}\u0000${eventName}`;
      const since = (this.#sinceTrim.get(key) ?? 0) + added;
      if (since < keep / 10) {
        this.#sinceTrim.set(key, since);
        return undefined;
      }
      this.#sinceTrim.delete(key);
    }
    return { emitter_id: emitterId, event_name: eventName, keep };
  }
}
