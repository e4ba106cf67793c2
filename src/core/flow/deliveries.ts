import type { DeliveryRow, Store, WebhookDeliveryRow } from "../../store/port.ts";
import { pendingWebhookDelivery } from "../../store/queries/webhook-deliveries.ts";
import type { Capacity } from "./capacity.ts";
import type { CommitQueue } from "../runtime/commit-queue.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { Quotas } from "../runtime/quotas.ts";
import type { Targets } from "../runtime/targets.ts";
import type { WebhookSender } from "./webhook-sender.ts";
import { countFailure, describeFailure, isFenced } from "../runtime/poison.ts";

// Sends queued deliveries to their listeners (decisions §5). Each listener has a lane that keeps
// the order deliveries were made in. A source or workflow lane starts invocations in order (the
// runner and the commit path keep that order) with up to MAX_IN_FLIGHT waiting, and each result
// removes its delivery in its own transaction; a run that throws lands on the listener's $errors
// and is not retried. When the listener's owner is over quota the lane waits. A webhook lane
// POSTs one at a time and retries a failure with backoff, holding later deliveries back so they
// arrive in order; after the last try the delivery is dropped and logged.
//
// Memory stays bounded: a lane holds at most LANE_MEMORY rows, and runs take room from the
// shared Capacity. Rows past that wait in the delivery table (where they are durable already)
// and are read back, oldest first, when the lane has drained what it holds.

const MAX_IN_FLIGHT = 256;
const LANE_MEMORY = 512;
const QUOTA_RECHECK_MS = 60_000;
const RETRY_AFTER_FAILURE_MS = 2000;
export const WEBHOOK_TRIES = 5;
/** finished deliveries kept per webhook in its history (GET /v1/webhooks/{id}/deliveries) */
export const WEBHOOK_HISTORY = 1000;

interface Lane {
  queue: DeliveryRow[];
  /** ids of the deliveries running now (their rows are still in the store) */
  inFlight: Set<string>;
  busy: boolean;
  /** rows may wait in the store that the lane does not hold */
  overflow: boolean;
  /** rows arrived while the lane read back: read again before trusting "no overflow" */
  dirty: boolean;
  timer?: NodeJS.Timeout;
  /** room freed in the shared capacity: whether the lane goes for it */
  wake: () => boolean;
  /** commit failures per delivery that were not the store's fault (poison detection) */
  failures: Map<string, number>;
  /** a wake-up came while the lane was busy: go round again when it is done */
  again: boolean;
  /** a read-back is under way, and the deliveries that finished meanwhile (it may have seen them) */
  reading: boolean;
  doneWhileReading: Set<string>;
}

export interface DeliveryDeps {
  store: Store;
  commits: CommitQueue;
  targets: Targets;
  invocations: Invocations;
  quotas: Quotas;
  webhooks: WebhookSender;
  capacity: Capacity;
  /** waits between webhook tries: WEBHOOK_TRIES - 1 of them */
  backoffMs: readonly number[];
  /** deliveries that may wait for one webhook whose receiver fails; past it the oldest go */
  maxPending: number;
  log: (err: unknown, what: string) => void;
  /** whether this node sends the listener's deliveries (several nodes: its partition's owner) */
  owns?: (listenerId: string) => boolean;
  /** tells the listener's owner, on another node, that deliveries wait for it */
  announce?: (listenerId: string) => void;
}

export class Deliveries {
  readonly #d: DeliveryDeps;
  readonly #lanes = new Map<string, Lane>();
  #closed = false;

  constructor(deps: DeliveryDeps) {
    this.#d = deps;
  }

  /** deliveries just committed, oldest first */
  add(rows: DeliveryRow[]): void {
    const touched = new Set<string>();
    for (const row of rows) {
      if (!this.#owns(row.listener_id)) {
        if (!touched.has(row.listener_id)) this.#d.announce?.(row.listener_id);
        touched.add(row.listener_id);
        continue;
      }
      const lane = this.#lane(row.listener_id);
      if (lane.overflow || lane.queue.length >= LANE_MEMORY) {
        lane.overflow = true;
        lane.dirty = true;
      } else {
        lane.queue.push(row);
      }
      touched.add(row.listener_id);
    }
    for (const id of touched) if (this.#owns(id)) this.#pump(id);
  }

  /** At start: everything queued before the last stop goes out again. */
  async start(): Promise<void> {
    await this.resume();
  }

  /** Reads every listener's queued rows back from the store (at start, or after a storage fault). */
  async resume(): Promise<void> {
    for (const id of await this.#d.store.deliveries.listeners()) {
      if (!this.#owns(id)) continue;
      const lane = this.#lane(id);
      lane.overflow = true;
      lane.dirty = true;
      this.#pump(id);
    }
  }

  /** Deliveries to the listener wait in the store (another node made them): read them. */
  wake(listenerId: string): void {
    if (this.#closed || !this.#owns(listenerId)) return;
    const lane = this.#lane(listenerId);
    lane.overflow = true;
    lane.dirty = true;
    this.#pump(listenerId);
  }

  /** Stops the lanes of the listeners `which` picks (another node sends their deliveries now). */
  dropWhere(which: (listenerId: string) => boolean): void {
    for (const id of [...this.#lanes.keys()]) if (which(id)) this.drop(id);
  }

  /** The listener is gone: forget its lane (its rows were deleted with it). */
  drop(listenerId: string): void {
    const lane = this.#lanes.get(listenerId);
    if (!lane) return;
    // what it held runs nowhere here now (deleted, or another node's)
    lane.queue = [];
    if (lane.timer) clearTimeout(lane.timer);
    this.#d.capacity.forget(lane.wake);
    this.#lanes.delete(listenerId);
  }

  close(): void {
    this.#closed = true;
    for (const lane of this.#lanes.values()) {
      if (lane.timer) clearTimeout(lane.timer);
      this.#d.capacity.forget(lane.wake);
    }
  }

  /** the lane is still the listener's, on a node that still owns it (a dropped lane stops) */
  #current(id: string, lane: Lane): boolean {
    return this.#lanes.get(id) === lane && this.#owns(id);
  }

  #owns(listenerId: string): boolean {
    return this.#d.owns ? this.#d.owns(listenerId) : true;
  }

  #lane(id: string): Lane {
    let lane = this.#lanes.get(id);
    if (!lane) {
      lane = {
        queue: [],
        inFlight: new Set(),
        busy: false,
        again: false,
        overflow: false,
        dirty: false,
        wake: () => this.#roomFreed(id),
        failures: new Map(),
        reading: false,
        doneWhileReading: new Set(),
      };
      this.#lanes.set(id, lane);
    }
    return lane;
  }

  // room freed in the shared capacity: whether the lane goes for it
  #roomFreed(id: string): boolean {
    const lane = this.#lanes.get(id);
    if (!lane || this.#closed || lane.timer || (lane.queue.length === 0 && !lane.overflow)) return false;
    this.#pump(id);
    return true;
  }

  #pump(id: string): void {
    const lane = this.#lanes.get(id);
    if (!lane || this.#closed) return;
    // A wake-up while the lane is busy (room freed, a run finished) must not be lost: the lane
    // may have just found no room, and nothing else would call again.
    if (lane.busy) {
      lane.again = true;
      return;
    }
    if (lane.timer) return;
    if (!this.#owns(id)) {
      this.drop(id);
      return;
    }
    lane.busy = true;
    let waits = false;
    const work = async () => {
      if (this.#shouldRead(lane)) await this.#readBack(id, lane);
      if (id.startsWith("wh_")) await this.#webhook(id, lane);
      else waits = (await this.#invoke(id, lane)) === "waits";
    };
    work()
      .catch((e) => {
        this.#d.log(e, `delivering to ${id} failed; trying again shortly`);
        lane.overflow = true;
        lane.queue = [];
        if (!lane.timer) this.#wake(id, lane, RETRY_AFTER_FAILURE_MS);
      })
      .finally(() => {
        lane.busy = false;
        // Woken for freed room, the lane may have taken less than there is, or nothing (over
        // quota, disabled, deleted, nothing left): the room goes to the next waiter, or it would
        // sit unused until some other run ends. Not when the lane waits for room itself.
        if (!waits && !id.startsWith("wh_")) this.#d.capacity.passOn();
        const again = lane.again;
        lane.again = false;
        if (lane.queue.length === 0 && lane.inFlight.size === 0 && !lane.timer && !lane.overflow) {
          if (this.#lanes.get(id) === lane) this.#lanes.delete(id);
        } else if (again || (this.#shouldRead(lane) && !lane.timer && lane.dirty)) {
          // woken meanwhile, or rows arrived while it read back: go round again
          this.#pump(id);
        }
      });
  }

  // Read back once the lane has run through what it holds and half its runs are done, so each
  // read brings many new rows instead of re-reading the ones still running.
  #shouldRead(lane: Lane): boolean {
    return lane.queue.length === 0 && lane.overflow && lane.inFlight.size <= MAX_IN_FLIGHT / 2;
  }

  async #readBack(id: string, lane: Lane): Promise<void> {
    lane.dirty = false;
    lane.reading = true;
    lane.doneWhileReading.clear();
    try {
      const want = LANE_MEMORY + lane.inFlight.size;
      const rows = await this.#d.store.deliveries.pendingFor(id, want);
      lane.queue = rows.filter((r) => !lane.inFlight.has(r.id) && !lane.doneWhileReading.has(r.id));
      if (rows.length < want && !lane.dirty) lane.overflow = false;
    } finally {
      lane.reading = false;
    }
  }

  #wake(id: string, lane: Lane, ms: number): void {
    lane.timer = setTimeout(() => {
      lane.timer = undefined;
      this.#pump(id);
    }, ms);
  }

  /** "waits": it stopped for lack of room, and waits for some */
  async #invoke(id: string, lane: Lane): Promise<"waits" | undefined> {
    while (lane.queue.length > 0 && lane.inFlight.size < MAX_IN_FLIGHT && !this.#closed && this.#current(id, lane)) {
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
        if (this.#shouldRead(lane)) await this.#readBack(id, lane);
        continue;
      }
      if (!(await this.#d.quotas.admit(t, "run"))) {
        if (!lane.timer) this.#wake(id, lane, QUOTA_RECHECK_MS);
        return;
      }
      // stopped or dropped while it looked the listener up: nothing more starts here (and the
      // run admitted goes back to the quota)
      if (this.#closed || !this.#current(id, lane) || lane.queue.length === 0) {
        await this.#d.quotas.release(t).catch(() => undefined);
        return;
      }
      const d = lane.queue[0];
      const bytes = d.payload.length;
      if (!this.#d.capacity.tryTake(bytes)) {
        await this.#d.quotas.release(t).catch(() => undefined);
        this.#d.capacity.whenFree(lane.wake);
        return "waits";
      }
      lane.queue.shift();
      lane.inFlight.add(d.id);
      const opts = { delivery: { id: d.id, hops: d.hops, emitterId: d.emitter_id } };
      this.#d.invocations
        .invoke(t, "run", d.payload, opts)
        .then(
          () => {
            lane.failures.delete(d.id);
            return false;
          },
          async (e: unknown) => {
            if (!countFailure(lane.failures, d.id, e)) {
              // fenced: the listener is another node's now, which runs it (nothing to report)
              if (!isFenced(e)) this.#d.log(e, "committing a delivered run failed; it runs again shortly");
              return true;
            }
            lane.failures.delete(d.id);
            this.#d.log(e, `a delivery to ${id} keeps failing to commit; it is set aside on $errors`);
            return this.#d.invocations.setAside(t, d.payload, opts, describeFailure(e)).then(
              () => false,
              (e2: unknown) => {
                this.#d.log(e2, "setting a delivery aside failed; it runs again shortly");
                return true;
              },
            );
          },
        )
        .then((failed) => {
          lane.inFlight.delete(d.id);
          if (lane.reading && !failed) lane.doneWhileReading.add(d.id);
          this.#d.capacity.give(bytes);
          if (failed) {
            lane.overflow = true;
            lane.dirty = true;
            if (!lane.timer) this.#wake(id, lane, RETRY_AFTER_FAILURE_MS);
          } else {
            this.#pump(id);
          }
        });
      if (this.#shouldRead(lane)) await this.#readBack(id, lane);
    }
  }

  /**
   * Records a try in the webhook's history; a finished delivery trims it to its newest rows. The
   * history only reports: failing to write it is logged and never makes a delivery go again.
   */
  async #history(row: WebhookDeliveryRow): Promise<void> {
    const store = this.#d.store.webhookDeliveries;
    try {
      await store.record(row);
      if (row.status !== "pending") await store.trim(row.webhook_id, WEBHOOK_HISTORY);
    } catch (e) {
      this.#d.log(e, `recording a try of webhook ${row.webhook_id} in its history failed`);
    }
  }

  /**
   * A receiver that keeps failing holds every later delivery behind the one it retries (in
   * order, about an hour each): past `maxPending` waiting for the webhook, the oldest (but the
   * one being sent) are dropped, and end as failed in its history, saying why.
   */
  async #cap(id: string, lane: Lane, sending: string): Promise<void> {
    try {
      const dropped = await this.#d.store.deliveries.dropOldest(id, this.#d.maxPending, sending);
      if (dropped.length === 0) return;
      const gone = new Set(dropped);
      lane.queue = lane.queue.filter((q) => !gone.has(q.id));
      const why = `dropped: more than ${this.#d.maxPending} deliveries waited for this webhook, whose receiver kept failing`;
      await this.#d.store.webhookDeliveries.fail(id, dropped, why);
      this.#d.log(new Error(why), `webhook ${id}: ${dropped.length} deliveries dropped`);
    } catch (e) {
      this.#d.log(e, `capping the deliveries waiting for webhook ${id} failed; the next failure tries again`);
    }
  }

  /** A delivery its lane no longer holds went through: recorded as delivered and taken off the store. */
  async #delivered(d: DeliveryRow, status: number | null): Promise<void> {
    const attempts = d.attempts + 1;
    // off the store first: once the history says delivered, no reader may find it owed
    await this.#d.commits.add({ deliveriesDone: [d.id] }).catch((e: unknown) => this.#d.log(e, `recording webhook delivery ${d.id} as done failed; it may be sent again`));
    await this.#history({ ...pendingWebhookDelivery(d), attempts, status: "delivered", last_status_code: status, last_error: null, next_attempt_at_ms: null, delivered_at_ms: Date.now() });
  }

  async #webhook(id: string, lane: Lane): Promise<void> {
    while (lane.queue.length > 0 && !this.#closed && this.#current(id, lane)) {
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
      if (!this.#current(id, lane)) {
        // The lane went during the POST (its partition changed hands, or the webhook was
        // deleted). A delivered event is done all the same: left in the store, the next owner
        // would send it a second time.
        if (outcome.ok) await this.#delivered(d, outcome.status ?? null);
        return;
      }
      d.attempts++;
      const history = {
        ...pendingWebhookDelivery(d),
        attempts: d.attempts,
        last_status_code: outcome.status ?? null,
        last_error: outcome.ok ? null : (outcome.reason ?? "failed"),
      };
      if (outcome.ok || d.attempts >= WEBHOOK_TRIES) {
        if (!outcome.ok) {
          this.#d.log(new Error(outcome.reason), `webhook ${id} gave up on event ${d.event_id} after ${d.attempts} tries`);
        }
        const status = outcome.ok ? "delivered" : "failed";
        await this.#history({ ...history, status, next_attempt_at_ms: null, delivered_at_ms: outcome.ok ? Date.now() : null });
        await this.#d.commits.add({ deliveriesDone: [d.id] });
        lane.queue.shift();
      } else {
        d.next_at_ms = Date.now() + (this.#d.backoffMs[d.attempts - 1] ?? this.#d.backoffMs.at(-1) ?? 60_000);
        await this.#history({ ...history, next_attempt_at_ms: d.next_at_ms });
        await this.#d.store.deliveries.retry(d.id, d.attempts, d.next_at_ms);
        await this.#cap(id, lane, d.id);
      }
      if (this.#shouldRead(lane)) await this.#readBack(id, lane);
    }
  }
}
