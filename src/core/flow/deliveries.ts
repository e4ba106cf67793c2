import type { DeliveryRow } from "../../store/port.ts";
import { LANE_MEMORY, laneKindOf, newLane, RETRY_AFTER_FAILURE_MS, shouldReadBack, type DeliveryDeps, type Lane, type LaneHost, type LaneKind, type LaneKindName } from "./delivery-lanes.ts";
import { ListenerLanes } from "./listener-lanes.ts";
import { WebhookLanes } from "./webhook-lanes.ts";

// Sends queued deliveries to their listeners (docs/api.md, Subscriptions and Webhooks). Each
// listener has a lane that keeps the order deliveries were made in; how a lane delivers depends on
// its kind, picked once when the lane is made (delivery-lanes.ts, laneKindOf): sources and
// workflows run (listener-lanes.ts), webhooks are POSTed to (webhook-lanes.ts).
//
// Memory stays bounded: a lane holds at most LANE_MEMORY rows, and runs take room from the
// shared Capacity. Rows past that wait in the delivery table (where they are durable already)
// and are read back, oldest first, when the lane has drained what it holds.

export type { DeliveryDeps } from "./delivery-lanes.ts";
// webhook-sender.ts reads the number of tries here
export { WEBHOOK_TRIES } from "./webhook-lanes.ts";

export class Deliveries {
  readonly #d: DeliveryDeps;
  readonly #lanes = new Map<string, Lane>();
  readonly #kinds: Record<LaneKindName, LaneKind>;
  #closed = false;

  constructor(deps: DeliveryDeps) {
    this.#d = deps;
    const host: LaneHost = {
      closed: () => this.#closed,
      current: (id, lane) => this.#current(id, lane),
      drop: (id) => this.drop(id),
      wakeIn: (id, lane, ms) => this.#wake(id, lane, ms),
      readBackIfDue: async (id, lane) => {
        if (shouldReadBack(lane)) await this.#readBack(id, lane);
      },
      pump: (id) => this.#pump(id),
    };
    this.#kinds = { listener: new ListenerLanes(deps, host), webhook: new WebhookLanes(deps, host) };
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
      lane = newLane(this.#kinds[laneKindOf(id)], () => this.#roomFreed(id));
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
      if (shouldReadBack(lane)) await this.#readBack(id, lane);
      waits = (await lane.kind.drain(id, lane)) === "waits";
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
        if (!waits && lane.kind.usesCapacity) this.#d.capacity.passOn();
        const again = lane.again;
        lane.again = false;
        if (lane.queue.length === 0 && lane.inFlight.size === 0 && !lane.timer && !lane.overflow) {
          if (this.#lanes.get(id) === lane) this.#lanes.delete(id);
        } else if (again || (shouldReadBack(lane) && !lane.timer && lane.dirty)) {
          // woken meanwhile, or rows arrived while it read back: go round again
          this.#pump(id);
        }
      });
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
}
