import { randomBytes } from "node:crypto";
import type { CoreDeps } from "./deps.ts";
import type { Page, PageRequest, UserRow, WebhookDeliveryRow, WebhookRow } from "../store/port.ts";
import { invalid, notFound, type FieldProblem } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { nowSeconds } from "../lib/clock.ts";
import type { SourceRuntime } from "./runtime/source-runtime.ts";

// Webhooks (docs/api.md, "Webhooks"; an extension in Pipedream's form): listeners outside the service.
// A subscription names one as its listener and each event is POSTed there, signed with the
// secret that only the create response shows (core/flow/webhook-sender.ts).

export interface WebhookInput {
  url?: unknown;
  name?: unknown;
  description?: unknown;
}

export interface WebhookView {
  id: string;
  user_id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  secret?: string;
  created_at: number;
  updated_at: number;
}

/** One delivery in a webhook's history, as the API shows it: the stored row without its owners. */
export type WebhookDeliveryView = Omit<WebhookDeliveryRow, "webhook_id" | "user_id">;

const MAX_URL = 2048;

export class Webhooks {
  readonly #deps: CoreDeps;
  readonly #rt: SourceRuntime;

  constructor(deps: CoreDeps, runtime: SourceRuntime) {
    this.#deps = deps;
    this.#rt = runtime;
  }

  view(w: WebhookRow, secret?: string): WebhookView {
    const { id, user_id, name, description, url, active, created_at, updated_at } = w;
    return { id, user_id, name, description, url, active, ...(secret ? { secret } : {}), created_at, updated_at };
  }

  /** The new webhook and its signing secret, which is never shown again. */
  async create(user: UserRow, input: WebhookInput): Promise<{ row: WebhookRow; secret: string }> {
    const problems: FieldProblem[] = [];
    const url = typeof input.url === "string" ? input.url.trim() : "";
    if (!url) problems.push({ field: "url", message: "is required" });
    else if (url.length > MAX_URL || !isHttpUrl(url)) problems.push({ field: "url", message: "must be an http or https URL" });
    const text = (field: "name" | "description", max: number) => {
      const v = input[field];
      if (v === undefined || v === null) return "";
      if (typeof v !== "string" || v.length > max) problems.push({ field, message: `must be a string of at most ${max} characters` });
      return String(v);
    };
    const name = text("name", 200);
    const description = text("description", 2000);
    if (problems.length) throw invalid("invalid webhook", problems);
    const secret = "whsec_" + randomBytes(24).toString("base64url");
    const now = nowSeconds();
    const row: WebhookRow = {
      id: newId("wh_"),
      user_id: user.id,
      name: name || new URL(url).host,
      description,
      url,
      active: true,
      secret: this.#deps.secrets.seal(secret),
      created_at: now,
      updated_at: now,
    };
    await this.#deps.store.webhooks.insert(row);
    return { row, secret };
  }

  /** The user's webhook, else 404. */
  async get(user: UserRow, id: string): Promise<WebhookRow> {
    const w = id.startsWith("wh_") ? await this.#deps.store.webhooks.byId(id) : undefined;
    if (!w || w.user_id !== user.id) throw notFound("webhook");
    return w;
  }

  /** A page of the webhook's delivery history, newest first. */
  async deliveries(user: UserRow, id: string, page: PageRequest): Promise<Page<WebhookDeliveryRow>> {
    await this.get(user, id);
    const result = await this.#deps.store.webhookDeliveries.list(id, page);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }

  deliveryView(d: WebhookDeliveryRow): WebhookDeliveryView {
    const { id, event_id, emitter_id, status, attempts, last_status_code, last_error, next_attempt_at_ms, created_at_ms, delivered_at_ms } = d;
    return { id, event_id, emitter_id, status, attempts, last_status_code, last_error, next_attempt_at_ms, created_at_ms, delivered_at_ms };
  }

  async delete(user: UserRow, id: string): Promise<void> {
    await this.get(user, id);
    await this.#deps.store.transaction(async (tx) => {
      await tx.webhooks.delete(id);
      await tx.subscriptions.deleteNaming(id);
      await tx.subscriptions.deleteAutoNaming(id);
      await tx.deliveries.deleteListener(id);
      await tx.webhookDeliveries.deleteWebhook(id);
    });
    this.#rt.gone(id, user.id);
  }

  async list(user: UserRow, page: PageRequest) {
    const result = await this.#deps.store.webhooks.list(user.id, page);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }
}

function isHttpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}
