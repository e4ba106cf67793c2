import type { CoreDeps } from "./deps.ts";
import type { ComponentMeta } from "../runtime/types.ts";
import type { ComponentRow, PageRequest, SourceRow, UserRow } from "../store/port.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { slugify, uniqueSlug } from "../lib/slug.ts";
import { nowSeconds } from "../lib/clock.ts";
import { randomBytes } from "node:crypto";
import { Components, type ComponentInput } from "./components.ts";
import { echoProps, normalizeProps } from "./props.ts";
import { AutoSubscriptions } from "./auto-subscriptions.ts";
import { SourceListCache, type RenderedPage } from "./source-list-cache.ts";

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

export function endpointUrl(publicUrl: string, key: string | null): string | null {
  return key ? `${publicUrl}/http/${key}` : null;
}

export class Sources {
  readonly #deps: CoreDeps;
  readonly #components: Components;
  readonly #lists: SourceListCache;

  constructor(deps: CoreDeps, components: Components) {
    this.#deps = deps;
    this.#components = components;
    // SQLite has one writer, this process, so its cached lists are exact; with PostgreSQL other
    // nodes write too, and a list may lag their writes by up to a second.
    this.#lists = new SourceListCache(
      (userId) => deps.store.sources.listAll(userId),
      async (row) => JSON.stringify(await this.view(row, false)),
      deps.store.kind === "sqlite" ? Infinity : 1000,
    );
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
    const props = normalizeProps(component.meta, input.configured_props, this.#deps.secrets);
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
      endpoint_key: hasHttp ? randomBytes(16).toString("base64url") : null,
      created_at: now,
      updated_at: now,
    };
    await this.#deps.store.transaction(async (tx) => {
      await tx.sources.insert(row);
      await new AutoSubscriptions(tx).applyTo(user.id, row.id);
    });
    this.#lists.invalidate(user.id);
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
    const props = normalizeProps(component.meta, input.configured_props, this.#deps.secrets, current.props);
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
      endpoint_key: hasHttp ? (current.endpoint_key ?? randomBytes(16).toString("base64url")) : current.endpoint_key,
      updated_at: nowSeconds(),
    };
    await this.#deps.store.sources.update(next);
    this.#lists.invalidate(user.id);
    return next;
  }

  async delete(user: UserRow, id: string): Promise<void> {
    await this.get(user, id);
    await this.#deps.store.transaction(async (tx) => {
      await tx.sources.delete(id);
      await tx.subscriptions.deleteNaming(id);
      await tx.subscriptions.deleteAutoNaming(id);
    });
    this.#lists.invalidate(user.id);
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
