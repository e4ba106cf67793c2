// The lanes of listeners that run (sources and workflows). A lane starts invocations in the order
// its deliveries were made (the runner and the commit path keep that order) with up to
// MAX_IN_FLIGHT waiting, and each result removes its delivery in its own transaction; a run that
// throws lands on the listener's $errors and is not retried. When the listener's owner is over
// quota the lane waits, and a run takes room from the shared Capacity first.
import { MAX_IN_FLIGHT, RETRY_AFTER_FAILURE_MS, type DeliveryDeps, type Lane, type LaneHost, type LaneKind } from "./delivery-lanes.ts";
import type { DeliveryRow } from "../../store/port.ts";
import type { Target } from "../runtime/target.ts";
import { countFailure, describeFailure, isFenced } from "../runtime/poison.ts";

const QUOTA_RECHECK_MS = 60_000;

export class ListenerLanes implements LaneKind {
  readonly usesCapacity = true;
  readonly #d: DeliveryDeps;
  readonly #host: LaneHost;

  constructor(deps: DeliveryDeps, host: LaneHost) {
    this.#d = deps;
    this.#host = host;
  }

  async drain(id: string, lane: Lane): Promise<"waits" | undefined> {
    const host = this.#host;
    while (lane.queue.length > 0 && lane.inFlight.size < MAX_IN_FLIGHT && !host.closed() && host.current(id, lane)) {
      const target = await this.#d.targets.get(id);
      if (!target) {
        // deleted: its rows went with it
        host.drop(id);
        return;
      }
      if (!target.source.active) {
        // a disabled listener takes nothing, as its HTTP endpoint takes nothing
        const dropped = lane.queue.splice(0);
        await this.#d.commits.add({ deliveriesDone: dropped.map((d) => d.id) });
        await host.readBackIfDue(id, lane);
        continue;
      }
      if (!(await this.#d.quotas.admit(target, "run"))) {
        if (!lane.timer) host.wakeIn(id, lane, QUOTA_RECHECK_MS);
        return;
      }
      // stopped or dropped while it looked the listener up: nothing more starts here (and the
      // run admitted goes back to the quota)
      if (host.closed() || !host.current(id, lane) || lane.queue.length === 0) {
        await this.#d.quotas.release(target).catch(() => undefined);
        return;
      }
      const delivery = lane.queue[0];
      if (!this.#d.capacity.tryTake(delivery.payload.length)) {
        await this.#d.quotas.release(target).catch(() => undefined);
        this.#d.capacity.whenFree(lane.wake);
        return "waits";
      }
      lane.queue.shift();
      lane.inFlight.add(delivery.id);
      this.#run(id, lane, target, delivery);
      await host.readBackIfDue(id, lane);
    }
  }

  /** Runs one delivery; its end frees its room and goes round the lane again, or retries it soon. */
  #run(id: string, lane: Lane, target: Target, delivery: DeliveryRow): void {
    const opts = { delivery: { id: delivery.id, hops: delivery.hops, emitterId: delivery.emitter_id } };
    this.#d.invocations
      .invoke(target, "run", delivery.payload, opts)
      .then(
        () => {
          lane.failures.delete(delivery.id);
          return false;
        },
        async (e: unknown) => {
          if (!countFailure(lane.failures, delivery.id, e)) {
            // fenced: the listener is another node's now, which runs it (nothing to report)
            if (!isFenced(e)) this.#d.log(e, "committing a delivered run failed; it runs again shortly");
            return true;
          }
          lane.failures.delete(delivery.id);
          this.#d.log(e, `a delivery to ${id} keeps failing to commit; it is set aside on $errors`);
          return this.#d.invocations.setAside(target, delivery.payload, opts, describeFailure(e)).then(
            () => false,
            (e2: unknown) => {
              this.#d.log(e2, "setting a delivery aside failed; it runs again shortly");
              return true;
            },
          );
        },
      )
      .then((failed) => {
        lane.inFlight.delete(delivery.id);
        if (lane.reading && !failed) lane.doneWhileReading.add(delivery.id);
        this.#d.capacity.give(delivery.payload.length);
        if (failed) {
          lane.overflow = true;
          lane.dirty = true;
          if (!lane.timer) this.#host.wakeIn(id, lane, RETRY_AFTER_FAILURE_MS);
        } else {
          this.#host.pump(id);
        }
      });
  }
}
