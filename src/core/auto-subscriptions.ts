import type { Store } from "../store/port.ts";
import { newId } from "../lib/ids.ts";
import { nowSeconds } from "../lib/clock.ts";

/** Auto-subscription streams as the API names them → as subscriptions store them. */
export const AUTO_STREAMS: Record<string, string> = { default: "", $errors: "$errors", $logs: "$logs" };

export class AutoSubscriptions {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Gives a newly created emitter the subscriptions its owner's auto-subscriptions ask for. */
  async applyTo(userId: string, emitterId: string): Promise<void> {
    for (const auto of await this.#store.subscriptions.listAuto(userId)) {
      // own keys only: a stored name like "constructor" (accepted before this was checked) is skipped
      if (!Object.hasOwn(AUTO_STREAMS, auto.event_name)) continue;
      const eventName = AUTO_STREAMS[auto.event_name];
      if (auto.listener_id === emitterId) continue;
      if (await this.#store.subscriptions.find(userId, emitterId, auto.listener_id, eventName)) continue;
      await this.#store.subscriptions.insert({
        id: newId("sub_"),
        user_id: userId,
        emitter_id: emitterId,
        listener_id: auto.listener_id,
        event_name: eventName,
        created_at: nowSeconds(),
      });
    }
  }
}
