import type { CoreDeps } from "../deps.ts";
import type { AccountRow, SourceRow, UserRow } from "../../store/port.ts";
import type { PropDefinition } from "../../runtime/types.ts";
import type { HttpResponse } from "../../runtime/protocol.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import type { Components } from "../components.ts";
import type { Accounts } from "../accounts/accounts.ts";
import type { SourceRuntime } from "../runtime/source-runtime.ts";
import type { DynamicProps } from "../dynamic-props.ts";
import { accountIdOf } from "../accounts/account-refs.ts";
import { withAdded } from "../added-props.ts";
import { APPHOOK } from "../props.ts";
import { ACCEPTED, type IncomingHttp } from "../flow/ingress.ts";
import { appKind, type AppEvent } from "./app-kinds.ts";
import { AppDeliveries, reachOnce } from "./app-deliveries.ts";
import { isObject } from "../../lib/is-object.ts";

// App hooks (docs/writing-components.md, "App hooks"): what an app sends to a connected account's
// app-events URL runs every active source of the account's owner with an apphook prop bound to
// that account (its `appProp` names an app prop whose value is the account) and an event name
// among the event's. Each run is accepted as POST /sources/{id}/run accepts one
// (SourceRuntime.acceptRun: counted against the quota, durable in the inbox, run when there is
// room), so an app's event is no different from a request.

/** a hook's event names, or "any": every event of its account (no names, or eventNames() failed) */
type HookNames = string[] | "any";

/** computed eventNames() answers kept, by source and configuration; past it the oldest go */
const MAX_COMPUTED = 10_000;

/** an app-events URL's key as accounts are given them (core/endpoint.ts newEndpointKey) */
const EVENTS_KEY = /^[0-9a-f]{32}$/i;

/**
 * The names a source's apphook prop `p` takes without the sandbox: the ones configured for it (a
 * list of names as the prop's value), else its fixed `eventNames`; undefined when they are
 * computed by an `eventNames()` function, which the sandbox runs (AppHooks.#computed).
 */
function fixedNames(p: PropDefinition, stored: Record<string, unknown>): string[] | undefined {
  const configured = Object.hasOwn(stored, p.name) ? stored[p.name] : undefined;
  if (Array.isArray(configured)) return configured as string[];
  return p.eventNames;
}

/** the source's apphook props bound to the account */
function boundHooks(props: PropDefinition[], s: SourceRow, accountId: string): PropDefinition[] {
  return props.filter((p) => {
    if (p.type !== APPHOOK || p.appProp === undefined) return false;
    const app = props.find((a) => a.name === p.appProp && a.type === "app");
    return app !== undefined && accountIdOf(Object.hasOwn(s.props, app.name) ? s.props[app.name] : undefined) === accountId;
  });
}

export class AppHooks {
  readonly #deps: CoreDeps;
  readonly #components: Components;
  readonly #accounts: Accounts;
  readonly #rt: SourceRuntime;
  readonly #dynamic: DynamicProps;
  /** computed eventNames() by source, prop and the props they were computed with */
  readonly #computedNames = new Map<string, Promise<HookNames>>();
  /** the sources each app delivery (by the app's id of it) reached: its retries don't run them again */
  readonly #deliveries = new AppDeliveries();

  constructor(deps: CoreDeps, components: Components, accounts: Accounts, runtime: SourceRuntime, dynamic: DynamicProps) {
    this.#deps = deps;
    this.#components = components;
    this.#accounts = accounts;
    this.#rt = runtime;
    this.#dynamic = dynamic;
  }

  /**
   * A request to the app-events URL with `key`: refused when the account's auth holds the app's
   * signing secret and the request isn't signed with it; else its events are delivered, each
   * tried before an error (of the first that failed) is answered.
   */
  async receive(key: string, req: IncomingHttp): Promise<HttpResponse> {
    const account = EVENTS_KEY.test(key) ? await this.#deps.store.accounts.byEventsKey(key.toLowerCase()) : undefined;
    if (!account) throw notFound("app-events URL");
    const kind = appKind(account.app);
    const auth = JSON.parse(this.#deps.secrets.open(account.auth)) as Record<string, unknown>;
    const secret = kind.secret(isObject(auth) ? auth : {});
    if (secret !== undefined) {
      const why = kind.badSignature(req, req.body, secret);
      if (why) throw new AppError("unauthorized", `the request isn't signed with this account's ${kind.secretField}: ${why}`);
    }
    const reading = kind.read(req);
    if ("reply" in reading) return reading.reply;
    const failures: unknown[] = [];
    for (const e of reading.events) await this.#deliver(account, e).catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw failures[0];
    return ACCEPTED;
  }

  /** POST /v1/accounts/{id}/events: `event` delivered under `name` as if the app had sent it. */
  async test(user: UserRow, id: string, body: unknown): Promise<{ delivered: string[] }> {
    const account = await this.#accounts.get(user, id);
    const input = isObject(body) ? body : {};
    if (typeof input.name !== "string" || input.name === "") {
      throw invalid("the event needs a name", [{ field: "name", message: "must be a non-empty string: the event's name, e.g. message or orders/create" }]);
    }
    return { delivered: await this.#deliver(account, { names: [input.name], event: input.event ?? {} }) };
  }

  /**
   * Accepts a run of `e` for each hook that takes it, each on its own: a source over its quota
   * misses the event (recorded on its $errors) and the others still get it. When one can't be
   * accepted (overloaded, the store failing), the first such error is thrown once every source
   * was tried, so the app sends the event again; with the app's id of it (`e.id`), that retry
   * reaches only the sources it missed. The ids of the sources the event reached.
   */
  async #deliver(account: AccountRow, e: AppEvent): Promise<string[]> {
    const reached = e.id === undefined ? undefined : this.#deliveries.of(account.id, e.id);
    const ids = await this.#hooked(account, e.names);
    const tries = await Promise.allSettled(ids.map((id) => reachOnce(reached, id, () => this.#accept(id, e.event))));
    const failed = tries.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    return ids.filter((_, i) => tries[i].status === "fulfilled" && tries[i].value);
  }

  /** a run of the source `id` with `event` accepted; false when it is gone, disabled or over its quota */
  async #accept(id: string, event: unknown): Promise<boolean> {
    const t = await this.#rt.targets.get(id);
    return t !== undefined && t.source.active && (await this.#rt.acceptRun(t, event));
  }

  /**
   * The ids of the account owner's active sources, oldest first, with an apphook bound to the
   * account that takes one of `names`. Read from the store at each event: a user's sources are
   * few (hundreds), and an app's events far rarer than endpoint requests.
   */
  async #hooked(account: AccountRow, names: string[]): Promise<string[]> {
    const out: string[] = [];
    const sources = await this.#deps.store.sources.listAll(account.user_id);
    for (const s of sources.reverse()) {
      if (!s.active) continue;
      const meta = await this.#components.meta(s.component_id);
      if (!meta) continue;
      for (const hook of boundHooks(withAdded(meta, s.props).props, s, account.id)) {
        const taken = fixedNames(hook, s.props) ?? (await this.#computed(s, hook.name));
        if (taken === "any" || taken.some((n) => names.includes(n))) {
          out.push(s.id);
          break;
        }
      }
    }
    return out;
  }

  /**
   * An apphook's `eventNames()` as the component computes it from the source's props (Slack's
   * sources: the channels configured), asked of the sandbox once per configuration. When it fails
   * (it calls an API that can't be reached...), the hook takes every event, logged.
   */
  #computed(s: SourceRow, prop: string): Promise<HookNames> {
    const key = `${s.id}\u0000${prop}\u0000${s.component_id}\u0000${JSON.stringify(s.props)}`;
    let names = this.#computedNames.get(key);
    if (!names) {
      if (this.#computedNames.size >= MAX_COMPUTED) this.#computedNames.delete(this.#computedNames.keys().next().value!);
      names = this.#ask(s, prop);
      this.#computedNames.set(key, names);
    }
    return names;
  }

  async #ask(s: SourceRow, prop: string): Promise<HookNames> {
    try {
      const user = await this.#deps.store.users.byId(s.user_id);
      if (!user) return "any";
      return await this.#dynamic.eventNames(user, s, prop);
    } catch (e) {
      this.#rt.log(e, `eventNames() of ${s.id}'s prop "${prop}" failed: it takes every event of its account`);
      return "any";
    }
  }
}
