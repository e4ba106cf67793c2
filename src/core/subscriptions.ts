import type { Routes } from "./flow/routes.ts";
import type { Store, SubscriptionRow, AutoSubscriptionRow, UserRow } from "../store/port.ts";
import { invalid, notFound, type FieldProblem } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { nowSeconds } from "../lib/clock.ts";
import { AUTO_STREAMS } from "./auto-subscriptions.ts";

export interface SubscriptionInput {
  emitter_id?: unknown;
  listener_id?: unknown;
  event_name?: unknown;
}

export const EMITTER_GLOBS = ["dc_*", "p_*"];

export const subscriptionView = (s: SubscriptionRow) => ({
  id: s.id,
  emitter_id: s.emitter_id,
  listener_id: s.listener_id,
  event_name: s.event_name,
});

export const autoSubscriptionView = (a: AutoSubscriptionRow) => ({
  id: a.id,
  event_name: a.event_name,
  listener_id: a.listener_id,
});

/** An auto-subscription as its list shows it. */
export const autoSubscriptionItemView = (a: AutoSubscriptionRow) => ({ ...autoSubscriptionView(a), created_at: a.created_at });

function requireString(input: Record<string, unknown>, field: string, problems: FieldProblem[]): string {
  const v = input[field];
  if (typeof v !== "string" || v === "") problems.push({ field, message: "is required" });
  return typeof v === "string" ? v : "";
}

export class Subscriptions {
  readonly #store: Store;
  readonly #routes: Routes;

  /** told of every change to a user's subscriptions (the other nodes drop their routes) */
  onChanged: (userId: string) => void = () => {};

  constructor(store: Store, routes: Routes) {
    this.#store = store;
    this.#routes = routes;
  }

  /** Whether `id` names a source, workflow or (as a listener only) webhook the user owns. */
  async #owns(user: UserRow, id: string, asListener: boolean): Promise<boolean> {
    if (id.startsWith("dc_")) return (await this.#store.sources.byId(id))?.user_id === user.id;
    if (id.startsWith("p_")) return (await this.#store.workflows.byId(id))?.user_id === user.id;
    if (id.startsWith("wh_") && asListener) return (await this.#store.webhooks.byId(id))?.user_id === user.id;
    return false;
  }

  #parse(input: SubscriptionInput) {
    const problems: FieldProblem[] = [];
    const fields = input as Record<string, unknown>;
    const emitter = requireString(fields, "emitter_id", problems);
    const listener = requireString(fields, "listener_id", problems);
    const name = input.event_name ?? "";
    if (typeof name !== "string") problems.push({ field: "event_name", message: "must be a string" });
    if (problems.length) throw invalid("invalid subscription", problems);
    return { emitter, listener, eventName: name as string };
  }

  async create(user: UserRow, input: SubscriptionInput): Promise<SubscriptionRow> {
    const { emitter, listener, eventName } = this.#parse(input);
    if (!EMITTER_GLOBS.includes(emitter) && !(await this.#owns(user, emitter, false))) throw notFound("emitter");
    if (!(await this.#owns(user, listener, true))) throw notFound("listener");
    const existing = await this.#store.subscriptions.find(user.id, emitter, listener, eventName);
    if (existing) return existing;
    const row: SubscriptionRow = {
      id: newId("sub_"),
      user_id: user.id,
      emitter_id: emitter,
      listener_id: listener,
      event_name: eventName,
      created_at: nowSeconds(),
    };
    try {
      await this.#store.subscriptions.insert(row);
      this.#routes.invalidate(user.id);
      this.onChanged(user.id);
    } catch (err) {
      // a concurrent identical request won the unique index: answer with its row
      const raced = await this.#store.subscriptions.find(user.id, emitter, listener, eventName);
      if (raced) return raced;
      throw err;
    }
    return row;
  }

  /** Without event_name, every stream's subscription between the two is removed. */
  async delete(user: UserRow, input: SubscriptionInput): Promise<number> {
    const { emitter, listener } = this.#parse(input);
    const eventName = input.event_name === undefined ? undefined : String(input.event_name);
    const n = await this.#store.subscriptions.delete(user.id, emitter, listener, eventName);
    this.#routes.invalidate(user.id);
    this.onChanged(user.id);
    return n;
  }

  list(user: UserRow): Promise<SubscriptionRow[]> {
    return this.#store.subscriptions.listByUser(user.id);
  }

  /** The user's auto-subscriptions, newest first. */
  async listAuto(user: UserRow): Promise<AutoSubscriptionRow[]> {
    return (await this.#store.subscriptions.listAuto(user.id)).reverse();
  }

  /** Sources and workflows created from now on no longer get its subscription (those it made stay). */
  async deleteAuto(user: UserRow, id: string): Promise<void> {
    if (!id.startsWith("asub_") || !(await this.#store.subscriptions.deleteAuto(user.id, id))) throw notFound("auto-subscription");
  }

  async createAuto(user: UserRow, input: SubscriptionInput): Promise<AutoSubscriptionRow> {
    const problems: FieldProblem[] = [];
    const fields = input as Record<string, unknown>;
    const eventName = requireString(fields, "event_name", problems);
    const listener = requireString(fields, "listener_id", problems);
    if (eventName && !Object.hasOwn(AUTO_STREAMS, eventName)) {
      problems.push({ field: "event_name", message: 'must be "default", "$errors" or "$logs"' });
    }
    if (problems.length) throw invalid("invalid auto-subscription", problems);
    if (!(await this.#owns(user, listener, true))) throw notFound("listener");
    const existing = await this.#store.subscriptions.findAuto(user.id, eventName, listener);
    if (existing) return existing;
    const row: AutoSubscriptionRow = {
      id: newId("asub_"),
      user_id: user.id,
      event_name: eventName,
      listener_id: listener,
      created_at: nowSeconds(),
    };
    await this.#store.subscriptions.insertAuto(row);
    return row;
  }
}
