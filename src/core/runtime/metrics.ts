import type { InvocationKind } from "../../runtime/protocol.ts";

// What core tells the operator's metrics about, as a port: core calls these on its hot paths and
// never imports a metrics library (the Prometheus side is http/metrics.ts). Each call is a counter
// or a histogram observation, nothing more; emitter ids are never passed (they would explode the
// label sets).

export type WebhookAttemptOutcome = "delivered" | "retry" | "failed";

export interface WebhookAttempt {
  webhookId: string;
  eventId: string;
  /** this attempt's number, 1 to `tries` */
  attempt: number;
  tries: number;
  outcome: WebhookAttemptOutcome;
  /** the receiver's status, when it answered */
  status?: number;
  /** why it failed (HTTP 500, timed out...) */
  reason?: string;
}

export interface CoreMetrics {
  /** an invocation's result came back from the runner */
  invocation(kind: InvocationKind, ok: boolean, wallMs: number): void;
  /** a group commit was written: how many results it carried and how long it took */
  commit(results: number, seconds: number): void;
  /** one webhook POST was made (the sink also logs the failed ones) */
  webhookAttempt(a: WebhookAttempt): void;
}

export const noMetrics: CoreMetrics = {
  invocation() {},
  commit() {},
  webhookAttempt() {},
};
