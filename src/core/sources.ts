import type { CoreDeps } from "./deps.ts";
import type { ComponentMeta } from "../runtime/types.ts";
import type { ComponentRow, PageRequest, SourceRow, UserRow } from "../store/port.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { slugify, uniqueSlug } from "../lib/slug.ts";
import { nowSeconds } from "../lib/clock.ts";
import { Components, type ComponentInput } from "./components.ts";
import { echoProps, normalizeProps } from "./props.ts";
import { checkAccountRefs } from "./accounts/account-refs.ts";
import { checkDataStoreRefs } from "./data-stores/store-refs.ts";
import { AutoSubscriptions } from "./auto-subscriptions.ts";
import { endpointUrl, newEndpointKey } from "./endpoint.ts";
import { SourceListCache, type RenderedPage } from "./source-list-cache.ts";
import type { SourceRuntime } from "./runtime/source-runtime.ts";
import { timerOf } from "./flow/timers.ts";
import type { DynamicProps } from "./dynamic-props.ts";
import { keepAdded } from "./added-props.ts";

export interface SourceInput extends ComponentInput {
  component_id?: unknown;
  key?: unknown;
  name?: unknown;
  configured_props?: unknown;
  active?: unknown;
}

export interface SourceView {
  id: string;
  user_id?: string;
  component_id: string;
  configured_props: Record<string, unknown>;
  active: boolean;
  created_at: number;
  updated_at: number;
  name: string;
  name_slug: string;
}

const EMPTY_META: ComponentMeta = { type: "source", props: [], hooks: [], methods: [], hasRun: false };

const hasValue = (v: unknown) => v !== undefined && v !== null;


export class Sources {
  readonly #deps: CoreDeps;
  readonly #components: Components;
  readonly #lists: SourceListCache;
  readonly #rt: SourceRuntime;
  /** a component with reloadProps props: configured_props are checked against the props it has so configured */
  readonly #dynamic: DynamicProps | undefined;

  constructor(deps: CoreDeps, components: Components, runtime: SourceRuntime, dynamic?: DynamicProps) {
    this.#deps = deps;
    this.#dynamic = dynamic;
    this.#components = components;
    this.#rt = runtime;
    // SQLite has one writer, this process, so its cached lists are exact; with PostgreSQL other
    // nodes write too, and a list may lag their writes by up to a second.
    this.#lists = new SourceListCache(
      (userId) => deps.store.sources.listAll(userId),
      async (row) => JSON.stringify(await this.view(row, false)),
      deps.store.kind === "sqlite" ? Infinity : 1000,
    );
    runtime.onUserChanged((userId) => this.#lists.invalidate(userId));
  }

  async view(s: SourceRow, withUserId: boolean): Promise<SourceView> {
    const meta = (await this.#components.meta(s.component_id)) ?? EMPTY_META;
    return {
      id: s.id,
      ...(withUserId ? { user_id: s.user_id } : {}),
      component_id: s.component_id,
      configured_props: echoProps(meta, s.props, endpointUrl(this.#deps.publicUrl, s.endpoint_key)),
      active: s.active,
      created_at: s.created_at,
      updated_at: s.updated_at,
      name: s.name,
      name_slug: s.name_slug,
    };
  }

  /** The component a create/update names, by the spec's precedence; undefined when none is named. */
  async #component(user: UserRow, input: SourceInput): Promise<ComponentRow | undefined> {
    if (hasValue(input.component_id)) {
      if (typeof input.component_id !== "string") {
        throw invalid("component_id must be a string", [{ field: "component_id", message: "must be a string" }]);
      }
      const c = await this.#deps.store.components.byId(input.component_id);
      if (!c || !(c.registry || c.user_id === user.id)) throw notFound("component");
      return c;
    }
    if (hasValue(input.component_code) || hasValue(input.component_url)) return this.#components.save(user, input);
    if (hasValue(input.key)) {
      if (typeof input.key !== "string") throw invalid("key must be a string", [{ field: "key", message: "must be a string" }]);
      return this.#components.registry(input.key);
    }
    return undefined;
  }

  async #uniqueName(userId: string, name: string, selfId?: string): Promise<{ name: string; slug: string }> {
    const base = slugify(name);
    const taken = await this.#deps.store.sources.slugsLike(userId, base);
    if (selfId) {
      const self = await this.#deps.store.sources.byId(selfId);
      if (self) taken.delete(self.name_slug);
    }
    const slug = uniqueSlug(base, taken);
    return { name: slug === base ? name : `${name}${slug.slice(base.length)}`, slug };
  }

  async create(user: UserRow, input: SourceInput): Promise<SourceRow> {
    const component = await this.#component(user, input);
    if (!component) {
      throw invalid("one of component_id, component_code, component_url or key is required", [
        { field: "component_id", message: "one of component_id, component_code, component_url or key is required" },
      ]);
    }
    const meta = (await this.#dynamic?.metaFor(user, component, input.configured_props)) ?? component.meta;
    const props = keepAdded(normalizeProps(meta, input.configured_props, this.#deps.secrets), meta, component.meta);
    await checkAccountRefs(this.#deps.store.accounts, user, meta, props);
    await checkDataStoreRefs(this.#deps.store.dataStores, user, meta, props);
    const wanted = checkName(input.name) ?? slugify(component.meta.name ?? component.meta.key ?? "source");
    const { name, slug } = await this.#uniqueName(user.id, wanted);
    const now = nowSeconds();
    const hasHttp = component.meta.props.some((p) => p.type === "$.interface.http");
    const row: SourceRow = {
      id: newId("dc_"),
      user_id: user.id,
      component_id: component.id,
      name,
      name_slug: slug,
      props,
      active: true,
      endpoint_key: hasHttp ? newEndpointKey() : null,
      created_at: now,
      updated_at: now,
    };
    // Hooks run first, dry: a hook that throws leaves no source behind (docs/writing-components.md, "Hooks and the lifecycle").
    const target = this.#rt.target(row, user, component);
    const hooks = await this.#rt.lifecycle.dry(target, ["deploy", "activate"]);
    // Two creates at once (on one node or two) may pick the same free name: the one that loses
    // the unique index takes the next free name instead of failing.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#deps.store.transaction(async (tx) => {
          await tx.sources.insert(row);
          await new AutoSubscriptions(tx).applyTo(user.id, row.id);
        });
        break;
      } catch (e) {
        if (attempt >= 10 || !(await this.#deps.store.sources.slugsLike(user.id, row.name_slug)).has(row.name_slug)) throw e;
        Object.assign(row, await this.#uniqueName(user.id, wanted).then(({ name: n, slug: sl }) => ({ name: n, name_slug: sl })));
      }
    }
    this.#rt.routes.invalidate(user.id);
    this.#lists.invalidate(user.id);
    await this.#rt.lifecycle.commit(target, hooks);
    if (timerOf(target)) {
      // the cached target: it shares the component row (code, bundle) with the other sources of
      // the component, where `target` carries a copy the timer would hold for as long as it ticks
      await this.#rt.timers.schedule((await this.#rt.targets.get(row.id)) ?? target, true);
    }
    this.#rt.changed(user.id, row.id);
    return row;
  }

  async get(user: UserRow, id: string): Promise<SourceRow> {
    const s = await this.#deps.store.sources.byId(id);
    if (!s || s.user_id !== user.id) throw notFound("source");
    return s;
  }

  async update(user: UserRow, id: string, input: SourceInput): Promise<SourceRow> {
    const current = await this.get(user, id);
    if (input.active !== undefined && typeof input.active !== "boolean") {
      throw invalid("active must be a boolean", [{ field: "active", message: "must be a boolean" }]);
    }
    const component =
      (await this.#component(user, input)) ?? (await this.#deps.store.components.byId(current.component_id));
    if (!component) throw notFound("component");
    // the stored values count only while the component stays the same
    const previous = component.id === current.component_id ? current.props : {};
    const meta = (await this.#dynamic?.metaFor(user, component, input.configured_props, previous)) ?? component.meta;
    const props = keepAdded(normalizeProps(meta, input.configured_props, this.#deps.secrets, current.props), meta, component.meta);
    await checkAccountRefs(this.#deps.store.accounts, user, meta, props);
    await checkDataStoreRefs(this.#deps.store.dataStores, user, meta, props, current.props);
    const wanted = checkName(input.name);
    const named = wanted && wanted !== current.name ? await this.#uniqueName(user.id, wanted, id) : undefined;
    const hasHttp = component.meta.props.some((p) => p.type === "$.interface.http");
    const next: SourceRow = {
      ...current,
      component_id: component.id,
      props,
      name: named?.name ?? current.name,
      name_slug: named?.slug ?? current.name_slug,
      active: input.active !== false,
      endpoint_key: hasHttp ? (current.endpoint_key ?? newEndpointKey()) : current.endpoint_key,
      updated_at: nowSeconds(),
    };
    const changed =
      next.component_id !== current.component_id ||
      JSON.stringify(next.props) !== JSON.stringify(current.props) ||
      next.active !== current.active;
    if (changed) await this.#swap(user, current, next, component);
    else await this.#deps.store.sources.update(next);
    this.#lists.invalidate(user.id);
    this.#rt.changed(user.id, id);
    return next;
  }

  // deactivate the old version, activate the new one dry, store it; a failing activate puts the
  // old version back (and re-activates it) and fails the call with hook_failed.
  async #swap(user: UserRow, current: SourceRow, next: SourceRow, component: ComponentRow): Promise<void> {
    const rt = this.#rt;
    const before = await rt.targets.get(current.id);
    const after = rt.target(next, user, component);
    if (before && current.active) {
      rt.timers.cancel(current.id);
      await rt.lifecycle.run(before, "deactivate");
    }
    let hooks: Awaited<ReturnType<typeof rt.lifecycle.dry>> = [];
    try {
      if (next.active) hooks = await rt.lifecycle.dry(after, ["activate"]);
    } catch (e) {
      if (before && current.active) {
        await rt.lifecycle.run(before, "activate").catch(() => {});
        if (timerOf(before)) await rt.timers.schedule(before);
      }
      throw e;
    }
    await this.#deps.store.sources.update(next);
    rt.targets.invalidate(next.id);
    await rt.lifecycle.commit(after, hooks);
    const fresh = await rt.targets.get(next.id);
    // a timer that was running and stays the same keeps its schedule (another prop changed)
    const sameTimer = before !== undefined && current.active && JSON.stringify(timerOf(before)) === JSON.stringify(fresh && timerOf(fresh));
    if (fresh && next.active && timerOf(fresh)) await rt.timers.schedule(fresh, !sameTimer);
  }

  async delete(user: UserRow, id: string): Promise<void> {
    const row = await this.get(user, id);
    this.#rt.timers.cancel(id);
    const target = await this.#rt.targets.get(id);
    // deactivate may fail; the user asked for the source to go, so it goes anyway
    if (target && row.active) await this.#rt.lifecycle.run(target, "deactivate").catch(() => {});
    await this.#deps.store.transaction(async (tx) => {
      await tx.sources.delete(id);
      await tx.subscriptions.deleteNaming(id);
      await tx.subscriptions.deleteAutoNaming(id);
      await tx.events.deleteEmitter(id);
      await tx.deliveries.deleteListener(id);
    });
    this.#rt.gone(id, user.id);
    this.#lists.invalidate(user.id);
  }

  /** POST /sources/{id}/run: the given event, or a timer event for a timer source. */
  async runNow(user: UserRow, id: string, event: unknown): Promise<void> {
    await this.get(user, id);
    await this.#rt.runNow(id, event, "source");
  }

  /** A page of the user's sources, items already rendered as JSON (the list is hot). */
  async list(user: UserRow, page: PageRequest): Promise<RenderedPage> {
    const result = await this.#lists.page(user.id, page);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }
}

function checkName(name: unknown): string | undefined {
  if (name === undefined || name === null) return undefined;
  if (typeof name !== "string" || name.trim() === "" || name.length > 200) {
    throw invalid("name must be a non-empty string of at most 200 characters", [
      { field: "name", message: "must be a non-empty string of at most 200 characters" },
    ]);
  }
  return name.trim();
}
