// The lanes of webhooks. A webhook lane POSTs one delivery at a time and retries a failure with
// backoff, holding later deliveries back so they arrive in order; after the last try the delivery
// is dropped and logged. Every try is recorded in the webhook's history.
import type { DeliveryRow, WebhookDeliveryRow } from "../../store/port.ts";
import { pendingWebhookDelivery } from "../../store/queries/webhook-deliveries.ts";
import type { DeliveryDeps, Lane, LaneHost, LaneKind } from "./delivery-lanes.ts";

export const WEBHOOK_TRIES = 5;
/** finished deliveries kept per webhook in its history (GET /v1/webhooks/{id}/deliveries) */
export const WEBHOOK_HISTORY = 1000;

export class WebhookLanes implements LaneKind {
  readonly usesCapacity = false;
  readonly #d: DeliveryDeps;
  readonly #host: LaneHost;

  constructor(deps: DeliveryDeps, host: LaneHost) {
    this.#d = deps;
    this.#host = host;
  }

  async drain(id: string, lane: Lane): Promise<undefined> {
    const host = this.#host;
    while (lane.queue.length > 0 && !host.closed() && host.current(id, lane)) {
      const delivery = lane.queue[0];
      const wait = delivery.next_at_ms - Date.now();
      if (wait > 0) {
        host.wakeIn(id, lane, wait);
        return;
      }
      const hook = await this.#d.store.webhooks.byId(id);
      if (!hook) {
        host.drop(id);
        return;
      }
      const outcome = await this.#d.webhooks.send(hook, delivery);
      if (!host.current(id, lane)) {
        // The lane went during the POST (its partition changed hands, or the webhook was
        // deleted). A delivered event is done all the same: left in the store, the next owner
        // would send it a second time.
        if (outcome.ok) await this.#delivered(delivery, outcome.status ?? null);
        return;
      }
      delivery.attempts++;
      const history = {
        ...pendingWebhookDelivery(delivery),
        attempts: delivery.attempts,
        last_status_code: outcome.status ?? null,
        last_error: outcome.ok ? null : (outcome.reason ?? "failed"),
      };
      if (outcome.ok || delivery.attempts >= WEBHOOK_TRIES) {
        if (!outcome.ok) {
          this.#d.log(new Error(outcome.reason), `webhook ${id} gave up on event ${delivery.event_id} after ${delivery.attempts} tries`);
        }
        const status = outcome.ok ? "delivered" : "failed";
        await this.#history({ ...history, status, next_attempt_at_ms: null, delivered_at_ms: outcome.ok ? Date.now() : null });
        await this.#d.commits.add({ deliveriesDone: [delivery.id] });
        lane.queue.shift();
      } else {
        const backoffMs = this.#d.backoffMs;
        delivery.next_at_ms = Date.now() + (backoffMs[delivery.attempts - 1] ?? backoffMs.at(-1) ?? 60_000);
        await this.#history({ ...history, next_attempt_at_ms: delivery.next_at_ms });
        await this.#d.store.deliveries.retry(delivery.id, delivery.attempts, delivery.next_at_ms);
        await this.#cap(id, lane, delivery.id);
      }
      await host.readBackIfDue(id, lane);
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
  async #delivered(delivery: DeliveryRow, status: number | null): Promise<void> {
    const attempts = delivery.attempts + 1;
    // off the store first: once the history says delivered, no reader may find it owed
    await this.#d.commits.add({ deliveriesDone: [delivery.id] }).catch((e: unknown) => this.#d.log(e, `recording webhook delivery ${delivery.id} as done failed; it may be sent again`));
    await this.#history({ ...pendingWebhookDelivery(delivery), attempts, status: "delivered", last_status_code: status, last_error: null, next_attempt_at_ms: null, delivered_at_ms: Date.now() });
  }
}
