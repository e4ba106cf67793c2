import type { DeliveryRow, Store } from "../store/port.ts";
import type { CommitQueue } from "./commit-queue.ts";
import type { Invocations } from "./invocations.ts";
import type { Quotas } from "./quotas.ts";
import type { Targets } from "./targets.ts";
import type { WebhookSender } from "./webhook-sender.ts";

// Sends queued deliveries to their listeners (decisions §5). Each listener has a lane that keeps
// the order deliveries were made in. A source or workflow lane starts invocations in order (the
// runner and the commit path keep that order) with up to MAX_IN_FLIGHT waiting, and each result
// removes its delivery in its own transaction; a run that throws lands on the listener's $errors
// and is not retried. When the listener's owner is over quota the lane waits. A webhook lane
// POSTs one at a time and retries a failure with backoff, holding later deliveries back so they
// arrive in order; after the last try the delivery is dropped and logged.

const MAX_IN_FLIGHT = 256;
const QUOTA_RECHECK_MS = 60_000;
export const WEBHOOK_TRIES = 5;

interface Lane {
  queue: DeliveryRow[];
  inFlight: number;
  busy: boolean;
  timer?: NodeJS.Timeout;
}

export interface DeliveryDeps {
  store: Store;
  commits: CommitQueue;
  targets: Targets;
  invocations: Invocations;
  quotas: Quotas;
  webhooks: WebhookSender;
  /** waits between webhook tries: WEBHOOK_TRIES - 1 of them */
  backoffMs: readonly number[];
  log: (err: unknown, what: string) => void;
}

export class Deliveries {
  readonly #d: DeliveryDeps;
  readonly #lanes = new Map<string, Lane>();
  #closed = false;

  constructor(deps: DeliveryDeps) {
    this.#d = deps;
  }

  /** deliveries just committed (or found pending at start), oldest first */
  add(rows: DeliveryRow[]): void {
    const touched = new Set<string>();
    for (const row of rows) {
      let lane = this.#lanes.get(row.listener_id);
      if (!lane) this.#lanes.set(row.listener_id, (lane = { queue: [], inFlight: 0, busy: false }));
      lane.queue.push(row);
      touched.add(row.listener_id);
    }
    for (const id of touched) this.#pump(id);
  }

  /** At start: everything queued before the last stop goes out again. */
  async start(): Promise<void> {
    this.add(await this.#d.store.deliveries.pending());
  }

  /** The listener is gone: forget its lane (its rows were deleted with it). */
  drop(listenerId: string): void {
    const lane = this.#lanes.get(listenerId);
    if (lane?.timer) clearTimeout(lane.timer);
    this.#lanes.delete(listenerId);
  }

  close(): void {
    this.#closed = true;
    for (const lane of this.#lanes.values()) if (lane.timer) clearTimeout(lane.timer);
  }

  #pump(id: string): void {
    const lane = this.#lanes.get(id);
    if (!lane || lane.busy || lane.timer || this.#closed) return;
    lane.busy = true;
    const work = id.startsWith("wh_") ? this.#webhook(id, lane) : this.#invoke(id, lane);
    work
      .catch((e) => this.#d.log(e, `delivering to ${id} failed`))
      .finally(() => {
        lane.busy = false;
        if (lane.queue.length === 0 && lane.inFlight === 0 && !lane.timer) {
          if (this.#lanes.get(id) === lane) this.#lanes.delete(id);
        }
      });
  }

  #wake(id: string, lane: Lane, ms: number): void {
    lane.timer = setTimeout(() => {
      lane.timer = undefined;
      this.#pump(id);
    }, ms);
  }

  async #invoke(id: string, lane: Lane): Promise<void> {
    while (lane.queue.length > 0 && lane.inFlight < MAX_IN_FLIGHT && !this.#closed) {
      const t = await this.#d.targets.get(id);
      if (!t) {
        // deleted: its rows went with it
        this.drop(id);
        return;
      }
      if (!t.source.active) {
        // a disabled listener takes nothing, as its HTTP endpoint takes nothing
        const dropped = lane.queue.splice(0);
        await this.#d.commits.add({ deliveriesDone: dropped.map((d) => d.id) });
        return;
      }
      if (!(await this.#d.quotas.admit(t, "run"))) {
        this.#wake(id, lane, QUOTA_RECHECK_MS);
        return;
      }
      const d = lane.queue.shift()!;
      lane.inFlight++;
      this.#d.invocations
        .invoke(t, "run", d.payload, { delivery: { id: d.id, hops: d.hops } })
        .catch((e) => this.#d.log(e, "committing a delivered run failed; it runs again at the next start"))
        .finally(() => {
          lane.inFlight--;
          this.#pump(id);
        });
    }
  }

  async #webhook(id: string, lane: Lane): Promise<void> {
    while (lane.queue.length > 0 && !this.#closed) {
      const d = lane.queue[0];
      const wait = d.next_at_ms - Date.now();
      if (wait > 0) {
        this.#wake(id, lane, wait);
        return;
      }
      const hook = await this.#d.store.webhooks.byId(id);
      if (!hook) {
        this.drop(id);
        return;
      }
      const outcome = await this.#d.webhooks.send(hook, d);
      if (!this.#lanes.has(id)) return;
      d.attempts++;
      if (outcome.ok || d.attempts >= WEBHOOK_TRIES) {
        if (!outcome.ok) {
          this.#d.log(new Error(outcome.reason), `webhook ${id} gave up on event ${d.event_id} after ${d.attempts} tries`);
        }
        lane.queue.shift();
        await this.#d.commits.add({ deliveriesDone: [d.id] });
        continue;
      }
      d.next_at_ms = Date.now() + (this.#d.backoffMs[d.attempts - 1] ?? this.#d.backoffMs.at(-1) ?? 60_000);
      await this.#d.store.deliveries.retry(d.id, d.attempts, d.next_at_ms);
    }
  }
}
