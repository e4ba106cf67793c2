import type { Bus } from "../bus/port.ts";
import { emitterChannel } from "../bus/port.ts";
import type { InvocationKind, InvokeLimits, InvokeResult, InvocationError } from "../runtime/protocol.ts";
import type { Invoker } from "../runtime/types.ts";
import type { ComponentRow, EmitterStateRow, EventRow, SourceRow, Store, UserRow } from "../store/port.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { newId } from "../lib/ids.ts";
import type { CommitPart, CommitQueue } from "./commit-queue.ts";
import { applyDedupe, byTs } from "./dedupe.ts";
import { renderItem } from "./event-render.ts";
import { runtimeProps } from "./runtime-props.ts";
import type { Usage } from "./usage.ts";

// Runs one invocation of a source and commits its result (DESIGN §1): emits ordered by ts and
// deduped, db and dedupe state, $errors and $logs, usage; then fans the events out on the bus.
// Results of one source are applied in the order their invocations were started.

export interface Target {
  source: SourceRow;
  user: UserRow;
  component: ComponentRow;
  endpointUrl: string | null;
}

export interface InvokeOptions {
  /** the inbox row this invocation consumes, removed in the same transaction */
  inboxSeq?: number;
  /** the timer's next due time, written in the same transaction */
  timerNextDueMs?: number;
  /** hooks of a source not created yet: run, but commit nothing */
  dryRun?: boolean;
}

export interface InvocationDeps {
  store: Store;
  invoker: Invoker;
  bus: Bus;
  commits: CommitQueue;
  usage: Usage;
  secrets: SecretBox;
  limits: InvokeLimits;
  fetchAllow: string[];
  retention: number;
}

interface CachedState {
  row: EmitterStateRow;
  epoch: number;
}

let epochs = 0;

export class Invocations {
  readonly #d: InvocationDeps;
  readonly #states = new Map<string, Promise<CachedState>>();
  readonly #tails = new Map<string, Promise<unknown>>();
  /** the loaded states, readable without waiting */
  readonly #known = new Map<string, { ms: number; n: number }>();
  /** deleted sources: results still in flight for them are dropped, not committed */
  readonly #deleted = new Set<string>();
  readonly #sinceTrim = new Map<string, number>();

  constructor(deps: InvocationDeps) {
    this.#d = deps;
  }

  async invoke(t: Target, kind: InvocationKind, event: unknown, opts: InvokeOptions = {}): Promise<InvokeResult> {
    const state = await this.#state(t.source);
    const startedAt = Date.now();
    const pending = this.#d.invoker.invoke({
      sourceId: t.source.id,
      codeHash: t.component.code_hash,
      code: t.component.code,
      kind,
      ...(event === undefined ? {} : { event }),
      props: runtimeProps(t.component.meta, t.source.props, this.#d.secrets, t.endpointUrl),
      db: state.row.db,
      dbEpoch: state.epoch,
      limits: this.#d.limits,
      fetchAllow: this.#d.fetchAllow,
    });
    if (opts.dryRun) return pending;
    return this.#inOrder(t, state, kind, startedAt, pending, opts);
  }

  /** Commits the result of a dry run (a hook of a source that now exists). */
  async commit(t: Target, kind: InvocationKind, startedAt: number, result: InvokeResult): Promise<void> {
    const state = await this.#state(t.source);
    await this.#inOrder(t, state, kind, startedAt, Promise.resolve(result), {});
  }

  #inOrder(
    t: Target,
    state: CachedState,
    kind: InvocationKind,
    startedAt: number,
    pending: Promise<InvokeResult>,
    opts: InvokeOptions,
  ): Promise<InvokeResult> {
    const id = t.source.id;
    const prev = this.#tails.get(id) ?? Promise.resolve();
    // The chain orders only the staging of results (ids, dedupe, state, queueing the commit), not
    // the commits themselves: results of one busy source then share group commits.
    const staged = prev.then(async () => {
      const result = await pending;
      // #apply runs synchronously up to queueing its commit, so the queue keeps chain order
      const committed = this.#apply(t, state, kind, startedAt, result, opts);
      return { result, committed };
    });
    const tail = staged.catch(() => {});
    this.#tails.set(id, tail);
    void tail.then(() => {
      if (this.#tails.get(id) === tail) this.#tails.delete(id);
    });
    return staged.then(async ({ result, committed }) => {
      await committed;
      return result;
    });
  }

  /** Records a refusal (quota, hop limit...) on the source's $errors stream. */
  async recordError(t: Target, kind: InvocationKind, error: InvocationError): Promise<void> {
    const state = await this.#state(t.source);
    const now = Date.now();
    const row = this.#event(t, state, "$errors", JSON.stringify({ error, invocation: { kind, started_at: now } }), {}, now);
    await this.#commit(t, { events: [row], states: [snapshot(state.row)], trims: [this.#trim(t, "$errors") ?? []].flat() }, [row]);
  }

  /** The newest event id given out for the emitter so far, when it is known here. */
  lastKey(emitterId: string): { ms: number; n: number } | undefined {
    return this.#known.get(emitterId);
  }

  /** Forgets a deleted source (after its rows are gone). */
  forget(sourceId: string): void {
    this.#states.delete(sourceId);
    this.#known.delete(sourceId);
    this.#deleted.add(sourceId);
  }

  #state(source: SourceRow): Promise<CachedState> {
    let cached = this.#states.get(source.id);
    if (!cached) {
      cached = this.#d.store.events.state(source.id).then((row) => ({
        row: row ?? { emitter_id: source.id, user_id: source.user_id, db: {}, dedupe: {}, last_ms: 0, last_n: -1 },
        epoch: ++epochs,
      }));
      this.#states.set(source.id, cached);
      cached.catch(() => this.#states.delete(source.id));
    }
    return cached;
  }

  async #apply(t: Target, state: CachedState, kind: InvocationKind, startedAt: number, r: InvokeResult, opts: InvokeOptions) {
    if (this.#deleted.has(t.source.id)) return;
    const now = Date.now();
    const rows: EventRow[] = [];
    const logs = r.logs.slice();
    if (!r.error) {
      const ordered = byTs(r.emits);
      const { kept, warnings } = applyDedupe(t.component.meta.dedupe, ordered, state.row.dedupe);
      for (const w of warnings) logs.push({ level: "warn", msg: w, ts: now });
      for (const e of kept) rows.push(this.#event(t, state, e.meta.name ?? "", e.json, e.meta, now));
      if (r.db) state.row.db = r.db;
    }
    const errors = r.error ? [r.error, ...r.emitErrors] : r.emitErrors;
    for (const error of errors) {
      const json = JSON.stringify({ error, invocation: { kind, started_at: startedAt } });
      rows.push(this.#event(t, state, "$errors", json, {}, now));
    }
    if (logs.length > 0) rows.push(this.#event(t, state, "$logs", JSON.stringify({ lines: logs }), {}, now));

    const perStream = new Map<string, number>();
    for (const e of rows) perStream.set(e.event_name, (perStream.get(e.event_name) ?? 0) + 1);
    const part: CommitPart = {
      events: rows,
      states: [snapshot(state.row)],
      usage: [this.#d.usage.add(t.user, r.wallMs)],
      trims: [...perStream].flatMap(([name, n]) => this.#trim(t, name, n) ?? []),
    };
    if (opts.inboxSeq !== undefined) part.inboxDone = [opts.inboxSeq];
    if (opts.timerNextDueMs !== undefined) part.timers = [{ source_id: t.source.id, next_due_ms: opts.timerNextDueMs }];
    await this.#commit(t, part, rows);
  }

  async #commit(t: Target, part: CommitPart, rows: EventRow[]): Promise<void> {
    try {
      await this.#d.commits.add(part);
    } catch (e) {
      // The in-memory state ran ahead of the store; start again from what the store has.
      this.#states.delete(t.source.id);
      throw e;
    }
    const channel = emitterChannel(t.source.id);
    for (const row of rows) {
      this.#d.bus.publish(channel, { eventName: row.event_name, id: `${row.ms}-${row.n}`, item: renderItem(row, true) });
    }
  }

  // Trimming finds its cut with OFFSET keep, which costs `keep` index steps. Small retentions
  // (the default 100) are trimmed on every write, exactly; large ones once per keep/10 writes, so
  // a stream may briefly hold up to 10% more than it keeps.
  #trim(t: Target, eventName: string, added = 1) {
    const keep = this.#d.retention;
    if (keep > 1000) {
      const key = `${t.source.id}\u0000${eventName}`;
      const since = (this.#sinceTrim.get(key) ?? 0) + added;
      if (since < keep / 10) {
        this.#sinceTrim.set(key, since);
        return undefined;
      }
      this.#sinceTrim.delete(key);
    }
    return { emitter_id: t.source.id, event_name: eventName, keep };
  }

  // Ids never go backwards for one emitter, even when the clock does (decisions §6).
  #event(t: Target, state: CachedState, name: string, json: string, meta: { id?: string | number; summary?: string; ts?: number }, now: number): EventRow {
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
}

// The commit writes the state as it is now, not as later invocations will leave it.
function snapshot(s: EmitterStateRow): EmitterStateRow {
  return { ...s, dedupe: { ...s.dedupe, ...(s.dedupe.ids ? { ids: s.dedupe.ids.slice() } : {}) } };
}
