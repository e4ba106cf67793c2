import type { DeliveryRow, EventRow, SourceRow, SubscriptionRow } from "../../store/port.ts";
import { newTimeOrderedId } from "../../lib/ids.ts";
import { eventId, renderItem } from "../event-render.ts";
import { listenersOf } from "./routes.ts";

// The deliveries a result's events owe their listeners (docs/api.md, "Subscriptions"), written in the same
// transaction as the events. A webhook gets the event summary item, a source or workflow the
// emitted payload. `hops` counts the deliveries in the chain so far; one that would make the
// chain deeper than MAX_HOPS is not made, and the caller records that on the emitter's $errors.

export const MAX_HOPS = 8;

export function fanOut(
  emitter: SourceRow,
  rows: EventRow[],
  delivered: string[],
  subs: SubscriptionRow[],
  hops: number,
  now: number,
): { deliveries: DeliveryRow[]; tooDeep: boolean } {
  const deliveries: DeliveryRow[] = [];
  if (subs.length === 0) return { deliveries, tooDeep: false };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (const listener of listenersOf(subs, emitter.id, row.event_name)) {
      if (hops > MAX_HOPS) return { deliveries: [], tooDeep: true };
      deliveries.push({
        id: newTimeOrderedId("dl_"),
        user_id: emitter.user_id,
        emitter_id: emitter.id,
        listener_id: listener,
        event_name: row.event_name,
        event_id: eventId(row),
        payload: listener.startsWith("wh_") ? renderItem(row, true) : delivered[i],
        hops,
        attempts: 0,
        next_at_ms: now,
        created_at_ms: now,
      });
    }
  }
  return { deliveries, tooDeep: false };
}
