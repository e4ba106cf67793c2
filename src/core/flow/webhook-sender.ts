import { createHmac } from "node:crypto";
import type { DeliveryRow, WebhookRow } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { postJson, type PostOutcome } from "../../lib/net/post-json.ts";
import { noMetrics, type CoreMetrics } from "../runtime/metrics.ts";
import { WEBHOOK_TRIES } from "./deliveries.ts";

// One webhook delivery (docs/api.md, "Webhooks"): the event summary item as the body, its id in
// X-Tributary-Event-Id, and X-Tributary-Signature = sha256=<hex HMAC-SHA256 of the raw body>
// keyed with the secret shown once at create, so a receiver can tell our POSTs from forgeries.

const TIMEOUT_MS = 10_000;

export function signature(secret: string, body: string): string {
  return "sha256=" + createHmac("sha256", secret).update(body).digest("hex");
}

export class WebhookSender {
  readonly #secrets: SecretBox;
  readonly #allow: readonly string[];
  readonly #metrics: CoreMetrics;

  constructor(secrets: SecretBox, allow: readonly string[], metrics: CoreMetrics = noMetrics) {
    this.#secrets = secrets;
    this.#allow = allow;
    this.#metrics = metrics;
  }

  /** One try of `d` (its `attempts` so far don't count it yet); counted, and logged when it failed. */
  async send(hook: WebhookRow, d: DeliveryRow): Promise<PostOutcome> {
    const outcome = await this.#post(hook, d);
    const attempt = d.attempts + 1;
    this.#metrics.webhookAttempt({
      webhookId: hook.id,
      eventId: d.event_id,
      attempt,
      tries: WEBHOOK_TRIES,
      outcome: outcome.ok ? "delivered" : attempt >= WEBHOOK_TRIES ? "failed" : "retry",
      status: outcome.status,
      reason: outcome.reason,
    });
    return outcome;
  }

  #post(hook: WebhookRow, d: DeliveryRow): Promise<PostOutcome> {
    const secret = this.#secrets.open(hook.secret);
    return postJson(hook.url, d.payload, {
      timeoutMs: TIMEOUT_MS,
      allow: this.#allow,
      headers: {
        "x-tributary-event-id": d.event_id,
        // event ids are unique per emitter; with this a receiver can de-duplicate retries
        "x-tributary-emitter-id": d.emitter_id,
        "x-tributary-signature": signature(secret, d.payload),
        "user-agent": "tributary-webhooks",
      },
    });
  }
}
