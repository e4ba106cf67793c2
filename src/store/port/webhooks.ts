import type { Page, PageRequest } from "./paging.ts";

export interface WebhookRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** sealed with the service's secret box */
  secret: string;
  created_at: number;
  updated_at: number;
}

export interface WebhookStore {
  insert(row: WebhookRow): Promise<void>;
  byId(id: string): Promise<WebhookRow | undefined>;
  list(userId: string, page: PageRequest): Promise<Page<WebhookRow> | undefined>;
  delete(id: string): Promise<boolean>;
}

/** What became of one webhook delivery (its history, kept after the delivery is done). */
export interface WebhookDeliveryRow {
  /** the delivery's id */
  id: string;
  webhook_id: string;
  user_id: string;
  event_id: string;
  emitter_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at_ms: number | null;
  created_at_ms: number;
  delivered_at_ms: number | null;
}

export interface WebhookDeliveryStore {
  /** writes the row, or updates the one with its id (status, attempts, last_*, next_attempt_at_ms, delivered_at_ms) */
  record(row: WebhookDeliveryRow): Promise<void>;
  /** a page of the webhook's history, newest first */
  list(webhookId: string, page: PageRequest): Promise<Page<WebhookDeliveryRow> | undefined>;
  /** the pending rows `ids` of the webhook end as failed, with `error` */
  fail(webhookId: string, ids: string[], error: string): Promise<void>;
  /** keeps only the webhook's newest `keep` finished rows (pending ones are deliveries still owed) */
  trim(webhookId: string, keep: number): Promise<void>;
  /** the webhook is gone */
  deleteWebhook(webhookId: string): Promise<number>;
}
