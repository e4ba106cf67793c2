/**
 * One event on its way to one listener: written in the transaction that commits the event, and
 * delivered at least once, surviving restarts (docs/architecture.md).
 */
export interface DeliveryRow {
  id: string;
  user_id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string;
  /** the delivered event's id, `${ms}-${n}` */
  event_id: string;
  /** JSON text: the emitted payload (source and workflow listeners) or the summary item (webhooks) */
  payload: string;
  /**
   * how many deliveries led to this one; over 8 it is not made, so subscriptions that form a loop
   * can't deliver forever (docs/api.md, "Subscriptions")
   */
  hops: number;
  attempts: number;
  next_at_ms: number;
  created_at_ms: number;
}

export interface DeliveryStore {
  /** every queued delivery, oldest first (resumed at start) */
  pending(): Promise<DeliveryRow[]>;
  /** the listeners that have queued deliveries */
  listeners(): Promise<string[]>;
  /** how many deliveries are queued (a metric: a full count, so read it seldom) */
  count(): Promise<number>;
  /** a listener's oldest `limit` queued deliveries, oldest first */
  pendingFor(listenerId: string, limit: number): Promise<DeliveryRow[]>;
  /** a failed webhook attempt: count it and set when to try again */
  retry(id: string, attempts: number, nextAtMs: number): Promise<void>;
  /** drops everything queued for a listener that is gone */
  deleteListener(listenerId: string): Promise<number>;
  /**
   * Past `keep` queued deliveries for the listener, drops the oldest (but `except`, one being
   * sent) until `keep` are left; returns the ids dropped.
   */
  dropOldest(listenerId: string, keep: number, except: string): Promise<string[]>;
}
