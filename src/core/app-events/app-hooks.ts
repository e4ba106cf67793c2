import type { CoreDeps } from "../deps.ts";
import type { AccountRow, SourceRow, UserRow } from "../../store/port.ts";
import type { PropDefinition } from "../../runtime/types.ts";
import type { HttpResponse } from "../../runtime/protocol.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import type { Components } from "../components.ts";
import type { Accounts } from "../accounts/accounts.ts";
import type { SourceRuntime } from "../runtime/source-runtime.ts";
import { accountIdOf } from "../accounts/account-refs.ts";
import { withAdded } from "../added-props.ts";
import { APPHOOK } from "../props.ts";
import { ACCEPTED, type IncomingHttp } from "../flow/ingress.ts";
import { appKind, type AppEvent } from "./app-kinds.ts";

// App hooks (docs/writing-components.md, "App hooks"): what an app sends to a connected account's
// app-events URL runs every active source of the account's owner with an apphook prop bound to
// that account (its `appProp` names an app prop whose value is the account) and an event name
// among the event's. Each run is accepted the way an HTTP endpoint's request is (Ingress.enqueue:
// durable in the inbox, run when there is room), so an app's event is no different from a request.

/** a hook's event names, or "any": computed by an `eventNames()` the host can't run (see hookNames) */
type HookNames = string[] | "any";

/** an app-events URL's key as accounts are given them (core/endpoint.ts newEndpointKey) */
const EVENTS_KEY = /^[0-9a-f]{32}$/i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The names a source's apphook prop `p` takes: the ones configured for it (a list of names as the
 * prop's value), else its fixed `eventNames`, else "any" (an `eventNames()` function, which only the
 * sandbox could run: such a hook gets every event of its account until given names).
 */
function hookNames(p: PropDefinition, stored: Record<string, unknown>): HookNames {
  const configured = Object.hasOwn(stored, p.name) ? stored[p.name] : undefined;
  if (Array.isArray(configured)) return configured as string[];
  return p.eventNames ?? "any";
}

export class AppHooks {
  readonly #deps: CoreDeps;
  readonly #components: Components;
  readonly #accounts: Accounts;
  readonly #rt: SourceRuntime;

  constructor(deps: CoreDeps, components: Components, accounts: Accounts, runtime: SourceRuntime) {
    this.#deps = deps;
    this.#components = components;
    this.#accounts = accounts;
    this.#rt = runtime;
  }

  /**
   * A request to the app-events URL with `key`: refused when the account's auth holds the app's
   * signing secret and the request isn't signed with it; else its events are delivered.
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
    for (const e of reading.events) await this.#deliver(account, e);
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

  /** Accepts a run of `e` for each hook that takes it; the ids of the sources it was accepted for. */
  async #deliver(account: AccountRow, e: AppEvent): Promise<string[]> {
    const delivered: string[] = [];
    for (const id of await this.#hooked(account, e.names)) {
      const t = await this.#rt.targets.get(id);
      if (!t || !t.source.active) continue;
      // a source over its quota misses the event; the others still get it
      if (!(await this.#rt.quotas.admit(t, "run"))) continue;
      try {
        await this.#rt.ingress.enqueue(t, e.event);
      } catch (err) {
        await this.#rt.quotas.release(t).catch(() => undefined);
        throw err;
      }
      delivered.push(id);
    }
    return delivered;
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
      if (meta && takes(withAdded(meta, s.props).props, s, account.id, names)) out.push(s.id);
    }
    return out;
  }
}

/** whether one of the source's apphook props is bound to the account and takes one of `names` */
function takes(props: PropDefinition[], s: SourceRow, accountId: string, names: string[]): boolean {
  return props.some((p) => {
    if (p.type !== APPHOOK || p.appProp === undefined) return false;
    const app = props.find((a) => a.name === p.appProp && a.type === "app");
    if (!app || accountIdOf(Object.hasOwn(s.props, app.name) ? s.props[app.name] : undefined) !== accountId) return false;
    const hook = hookNames(p, s.props);
    return hook === "any" || hook.some((n) => names.includes(n));
  });
}
