import type { Store, SubscriptionRow } from "../../store/port.ts";

// Which listeners an emitted event goes to (docs/api.md, "Subscriptions"). Every commit asks, so each user's
// subscriptions are kept in memory and dropped on every write that can change them. A glob
// (`dc_*`, `p_*`) matches the owner's emitters of that kind, created before or after it, but
// never delivers an emitter's events to itself: a source listening to "all my sources" would
// otherwise feed on its own output until the hop limit.

export class Routes {
  readonly #store: Store;
  readonly #byUser = new Map<string, Promise<SubscriptionRow[]>>();

  constructor(store: Store) {
    this.#store = store;
  }

  forUser(userId: string): Promise<SubscriptionRow[]> {
    let subs = this.#byUser.get(userId);
    if (!subs) {
      subs = this.#store.subscriptions.listByUser(userId);
      this.#byUser.set(userId, subs);
      subs.catch(() => this.#byUser.delete(userId));
    }
    return subs;
  }

  /** a subscription of this user was made or removed (or an emitter/listener of theirs went) */
  invalidate(userId: string): void {
    this.#byUser.delete(userId);
  }
}

/** The listeners of one event, each once even when an exact and a glob subscription both match. */
export function listenersOf(subs: SubscriptionRow[], emitterId: string, eventName: string): string[] {
  const out: string[] = [];
  for (const s of subs) {
    if (s.event_name !== eventName) continue;
    const hit =
      s.emitter_id === emitterId ||
      (s.listener_id !== emitterId &&
        ((s.emitter_id === "dc_*" && emitterId.startsWith("dc_")) || (s.emitter_id === "p_*" && emitterId.startsWith("p_"))));
    if (hit && !out.includes(s.listener_id)) out.push(s.listener_id);
  }
  return out;
}
