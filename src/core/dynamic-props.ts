import type { CoreDeps } from "./deps.ts";
import type { Components } from "./components.ts";
import type { AccountAuth } from "./accounts/account-auth.ts";
import type { EnvSnapshots } from "./env-vars/env-snapshots.ts";
import type { ComponentRow, SourceRow, UserRow } from "../store/port.ts";
import type { ComponentMeta, PropDefinition } from "../runtime/types.ts";
import type { InvocationKind, InvokeResult } from "../runtime/protocol.ts";
import { AppError, invalid, notFound } from "../lib/errors.ts";
import { parseDescribeResult } from "../runtime/sandbox/analyze/meta.ts";
import { sandboxValues } from "./dynamic-prop-values.ts";
import { ADDED, addedOf, withAdded } from "./added-props.ts";

// A props form's questions (docs/api.md, "Dynamic props"), answered by the component's own code in a runner,
// as a run would be: `options()` of one prop, and `additionalProps()` for components with
// `reloadProps` props, whose props are then the static ones plus those it adds. Nothing is
// stored or counted; the answer is read here again, whatever the sandbox said.

export interface OptionsInput {
  configured_props?: unknown;
  /** a source of this component being edited: its stored values (secrets opened) under the given ones */
  source_id?: unknown;
  prev_context?: unknown;
  query?: unknown;
  page?: unknown;
}

export interface Option {
  label: string;
  value: unknown;
}

export interface OptionsAnswer {
  options: Option[];
  context?: Record<string, unknown>;
}

/** code that answers a form's questions: a saved component, or a workflow step's own code */
export type Runnable = Pick<ComponentRow, "id" | "code" | "code_hash" | "meta"> & { bundle: { code: string; hash: string } | null };

const DEFAULT_TIMEOUT_MS = 10_000;
/** a secret sent back as shown ("********", a step's {secret: true}): the stored value stands */
const SHOWN = (v: unknown) => v === "********" || (isObject(v) && v.secret === true && Object.keys(v).length === 1);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** whether the component's props change with its configuration (a `reloadProps` prop) */
export const reloads = (meta: ComponentMeta): boolean => meta.props.some((p) => p.reloadProps === true);

// Each question gets a db epoch never used before: a warm context's db from an earlier question
// is never carried into the next (dynamic props have no state of their own).
let epoch = -1;

export class DynamicProps {
  readonly #deps: CoreDeps;
  readonly #components: Components;
  readonly #accounts: AccountAuth;
  readonly #env: EnvSnapshots;

  constructor(deps: CoreDeps, components: Components, runtime: { accountAuth: AccountAuth; env: EnvSnapshots }) {
    this.#deps = deps;
    this.#components = components;
    this.#accounts = runtime.accountAuth;
    this.#env = runtime.env;
  }

  /** The options of `prop` of the user's (or a registry) component `keyOrId`. */
  async options(user: UserRow, keyOrId: string, prop: string, input: OptionsInput): Promise<OptionsAnswer> {
    const component = await this.#components.get(user, keyOrId);
    const configured = await this.#configured(user, component, input.configured_props, input.source_id);
    const known = component.meta.props.find((p) => p.name === prop);
    // a prop additionalProps() adds is found in the sandbox; without it, an unknown prop is known not to be
    if (!known && !reloads(component.meta)) throw new AppError("invalid_component", `this component has no prop "${prop}"`);
    // additionalProps() (run to find an added prop) gets the props it added for the source being edited
    const source = typeof input.source_id === "string" ? await this.#deps.store.sources.byId(input.source_id) : undefined;
    const previous = Object.fromEntries(addedOf(source?.props).map(({ name, ...def }) => [name, def]));
    const args = { prop, configured, previous, prevContext: isObject(input.prev_context) ? input.prev_context : {}, query: input.query, page: input.page ?? 0 };
    const body = await this.#ask(user, component, "options", args, configured, `options() of prop "${prop}"`);
    return optionsAnswer(body);
  }

  /** The props of component `keyOrId` configured so: its own and those additionalProps() adds. */
  async reload(user: UserRow, keyOrId: string, configured: unknown, sourceId?: unknown): Promise<{ component: ComponentRow; props: PropDefinition[] }> {
    const component = await this.#components.get(user, keyOrId);
    if (!reloads(component.meta)) throw new AppError("invalid_component", "this component has no props marked reloadProps: its props don't change");
    const values = await this.#configured(user, component, configured, sourceId);
    const source = typeof sourceId === "string" ? await this.#deps.store.sources.byId(sourceId) : undefined;
    return { component, props: await this.#union(user, component, values, addedOf(source?.props)) };
  }

  /**
   * The event names apphook prop `prop` of `source` takes, from its computed `eventNames()` run
   * with the source's props (core/app-events/app-hooks.ts asks, once per configuration).
   */
  async eventNames(user: UserRow, source: SourceRow, prop: string): Promise<string[]> {
    const component = await this.#components.get(user, source.component_id);
    const configured = this.#opened(withAdded(component.meta, source.props), source.props);
    const body = await this.#ask(user, component, "eventNames", { prop }, configured, `eventNames() of prop "${prop}"`);
    const names = isObject(body) ? body.eventNames : undefined;
    if (!Array.isArray(names) || !names.every((n) => typeof n === "string" && n.length <= 200)) {
      throw new AppError("invalid_component", `eventNames() of prop "${prop}" gave no list of names the service could read`);
    }
    return names as string[];
  }

  /**
   * The values a question runs with: the given ones, over those stored for `sourceId` (the user's
   * source of this component, being edited: its secrets opened, since the form never holds them).
   */
  async #configured(user: UserRow, component: ComponentRow, given: unknown, sourceId: unknown): Promise<Record<string, unknown>> {
    const configured = configuredOf(given);
    if (sourceId === undefined || sourceId === null) return configured;
    if (typeof sourceId !== "string") throw invalid("source_id must be a string", [{ field: "source_id", message: "must be a source id (dc_...)" }]);
    const source = sourceId.startsWith("dc_") ? await this.#deps.store.sources.byId(sourceId) : undefined;
    if (!source || source.user_id !== user.id) throw notFound("source");
    if (source.component_id !== component.id) {
      throw invalid("the source is not of this component", [{ field: "source_id", message: "is a source of another component" }]);
    }
    const over = Object.fromEntries(Object.entries(configured).filter(([, v]) => !SHOWN(v)));
    return { ...this.#opened(withAdded(component.meta, source.props), source.props), ...over };
  }

  /**
   * The description `configured_props` are checked against at a source's create or update: the
   * component's own, or, for a component with `reloadProps` props, the union computed from these
   * values (`previous`: the stored props they update, secrets sealed).
   */
  async metaFor(user: UserRow, component: Runnable, given: unknown, previous: Record<string, unknown> = {}): Promise<ComponentMeta> {
    if (!reloads(component.meta) || (given !== undefined && given !== null && !isObject(given))) return component.meta;
    const values = { ...this.#opened(withAdded(component.meta, previous), previous), ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => !SHOWN(v))) };
    return { ...component.meta, props: await this.#union(user, component, values, addedOf(previous)) };
  }

  /**
   * The component's props, as additionalProps() changed them in place, then those it adds.
   * `previous`: the props it added last time, part of its argument as Pipedream gives it.
   */
  async #union(user: UserRow, component: Runnable, configured: Record<string, unknown>, previous: PropDefinition[] = []): Promise<PropDefinition[]> {
    const previousDefs = Object.fromEntries(previous.map(({ name, ...def }) => [name, def]));
    const body = await this.#ask(user, component, "reload", { configured, previous: previousDefs }, configured, "additionalProps()");
    const added = described(isObject(body) ? body.props : undefined);
    if (!added) throw new AppError("invalid_component", "additionalProps() gave no props the service could read");
    const changed = new Map((described(isObject(body) ? body.statics : undefined) ?? []).map((p) => [p.name, p]));
    const own = new Set(component.meta.props.map((p) => p.name));
    const statics = component.meta.props.map((p) => (changed.has(p.name) ? alteredProp(p, changed.get(p.name)!) : p));
    return [...statics, ...added.filter((p) => !own.has(p.name))];
  }

  /** stored values as the form had them: secrets opened (`meta`: with the props added for them) */
  #opened(meta: ComponentMeta, stored: Record<string, unknown>): Record<string, unknown> {
    const secret = new Set(meta.props.filter((p) => p.secret).map((p) => p.name));
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(stored)) {
      if (name === ADDED) continue;
      out[name] = secret.has(name) && typeof v === "string" ? JSON.parse(this.#deps.secrets.open(v)) : v;
    }
    return out;
  }

  async #ask(user: UserRow, component: Runnable, kind: InvocationKind, args: unknown, configured: Record<string, unknown>, what: string): Promise<unknown> {
    const timeoutMs = this.#deps.propsTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const [props, env] = await Promise.all([sandboxValues(component.meta, configured, user.id, this.#accounts), this.#env.snapshot(user.id)]);
    const code = component.bundle ? { codeHash: component.bundle.hash, code: component.bundle.code } : { codeHash: component.code_hash, code: component.code };
    const result = await this.#deps.invoker.invoke({
      // an isolate of its own (no owner): a question that runs away ends no source's context
      sourceId: `props:${user.id}:${component.id}`,
      ...code,
      kind,
      eventJson: JSON.stringify(args),
      props,
      ...(env === undefined ? {} : { env }),
      db: {},
      dbEpoch: epoch--,
      limits: { ...this.#deps.limits, timeoutMs },
      fetchAllow: [...this.#deps.fetchAllow],
    });
    if (result.error) throw new AppError("invalid_component", failure(result, what, timeoutMs));
    return result.response?.body;
  }
}

/** props described in the sandbox, read again as a saved component's are (undefined: not a list) */
function described(props: unknown): PropDefinition[] | undefined {
  if (!Array.isArray(props)) return undefined;
  const parsed = parseDescribeResult(JSON.stringify({ ok: true, meta: { props } }));
  return parsed.ok ? parsed.meta.props : undefined;
}

// What additionalProps() may change of a static prop in place, as Pipedream's components do
// (Notion's append-block unhides props, Calendly's sources make some optional). Its name, type,
// secrecy and app stay as saved: the stored values were checked, sealed and opened by them.
const ALTERABLE = ["label", "description", "optional", "hidden", "disabled", "default", "options", "min", "max"] as const;

function alteredProp(own: PropDefinition, changed: PropDefinition): PropDefinition {
  const out: PropDefinition = { ...own };
  for (const f of ALTERABLE) {
    if (changed[f] === undefined) delete out[f];
    else (out as unknown as Record<string, unknown>)[f] = changed[f];
  }
  return out;
}

function failure(result: InvokeResult, what: string, timeoutMs: number): string {
  const { name, message } = result.error!;
  if (name === "TimeoutError") return `${what} did not answer within ${timeoutMs} ms`;
  if (name === "OutOfMemoryError") return `${what} ran out of memory`;
  return `${what} failed: ${name && name !== "Error" ? `${name}: ` : ""}${message}`;
}

function configuredOf(given: unknown): Record<string, unknown> {
  if (given === undefined || given === null) return {};
  if (!isObject(given)) throw invalid("configured_props must be an object", [{ field: "configured_props", message: "must be an object" }]);
  return given;
}

/** The sandbox's answer, read again: only `{label: string, value}` options and an object context. */
function optionsAnswer(body: unknown): OptionsAnswer {
  const list = isObject(body) && Array.isArray(body.options) ? body.options : undefined;
  if (!list || !list.every((o) => isObject(o) && typeof o.label === "string" && Object.hasOwn(o, "value"))) {
    throw new AppError("invalid_component", "options() gave no options the service could read");
  }
  const options = list.map((o) => ({ label: o.label as string, value: o.value }));
  return isObject(body) && isObject(body.context) ? { options, context: body.context } : { options };
}
