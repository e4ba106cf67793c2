import type { CoreDeps } from "./deps.ts";
import type { ComponentRow, Page, PageRequest, UserRow } from "../store/port.ts";
import type { ComponentMeta, PropDefinition } from "../runtime/types.ts";
import { AppError, invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { sha256Hex } from "../lib/hash.ts";
import { WORKFLOW_MARKER } from "../runtime/workflow-code.ts";
import { nowSeconds } from "../lib/clock.ts";
import { fetchText } from "../lib/net/fetch-text.ts";

export interface ComponentInput {
  component_code?: unknown;
  component_url?: unknown;
}

export interface ComponentView {
  id: string;
  code: string;
  code_hash: string;
  name: string;
  version: string;
  /** the component's own `key`, `type` ("source" or "action") and `description` (extensions) */
  key: string | null;
  type: string;
  description: string | null;
  configurable_props: Partial<PropDefinition>[];
  created_at: number;
  updated_at: number;
}

/** what `?type=` on a list of components may ask for */
export const COMPONENT_TYPES = ["source", "action"] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

const MAX_CODE_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const PROP_FIELDS = ["label", "description", "optional", "hidden", "disabled", "default", "secret", "options", "min", "max", "app", "appProp", "eventNames", "alertType", "content", "reloadProps", "remoteOptions", "useQuery"] as const;

export function componentView(c: ComponentRow): ComponentView {
  return {
    id: c.id,
    code: c.code,
    code_hash: c.code_hash,
    name: c.meta.name ?? c.meta.key ?? "",
    version: c.meta.version ?? "",
    key: c.meta.key ?? null,
    type: c.meta.type || "source",
    description: c.meta.description ?? null,
    configurable_props: c.meta.props.map((p) => {
      const out: Record<string, unknown> = { name: p.name, type: p.type };
      for (const f of PROP_FIELDS) if (p[f] !== undefined) out[f] = p[f];
      return out as Partial<PropDefinition>;
    }),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** A component in a list: everything `componentView` shows but its code. */
export function componentSummaryView(c: ComponentRow): Omit<ComponentView, "code"> {
  const { code: _code, ...rest } = componentView(c);
  return rest;
}

export class Components {
  readonly #deps: CoreDeps;
  /** id → meta: a component's code never changes, so neither does its description */
  readonly #metaCache = new Map<string, ComponentMeta>();

  constructor(deps: CoreDeps) {
    this.#deps = deps;
  }

  /** The code a request names: `component_code` wins; `component_url` is fetched otherwise. */
  async resolveCode(input: ComponentInput): Promise<{ code: string; url: string | null }> {
    const url = input.component_url;
    if (url !== undefined && url !== null && typeof url !== "string") {
      throw invalid("component_url must be a string", [{ field: "component_url", message: "must be a string" }]);
    }
    const code = input.component_code;
    if (code !== undefined && code !== null) {
      if (typeof code !== "string" || code.trim() === "") {
        throw invalid("component_code must be a non-empty string", [
          { field: "component_code", message: "must be a non-empty string" },
        ]);
      }
      if (Buffer.byteLength(code) > MAX_CODE_BYTES) throw new AppError("payload_too_large", "component code is over 1 MiB");
      return { code, url: url ?? null };
    }
    if (!url) {
      throw invalid("component_code or component_url is required", [
        { field: "component_code", message: "component_code or component_url is required" },
      ]);
    }
    try {
      const fetched = await fetchText(url, {
        timeoutMs: FETCH_TIMEOUT_MS,
        maxBytes: MAX_CODE_BYTES,
        allow: this.#deps.fetchAllow,
      });
      return { code: fetched, url };
    } catch (err) {
      throw invalid(`component_url could not be fetched: ${(err as Error).message}`, [
        { field: "component_url", message: (err as Error).message },
      ]);
    }
  }

  /** Saves code for a user (or the registry); identical code returns the existing component. */
  async save(owner: UserRow | null, input: ComponentInput): Promise<ComponentRow> {
    const { code, url } = await this.resolveCode(input);
    return this.saveCode(owner, code, url);
  }

  async saveCode(owner: UserRow | null, code: string, url: string | null): Promise<ComponentRow> {
    const store = this.#deps.store.components;
    const hash = sha256Hex(code);
    const existing = owner ? await store.byUserHash(owner.id, hash) : await store.registryByHash(hash);
    if (existing) {
      if (url && url !== existing.component_url) {
        existing.component_url = url;
        existing.updated_at = nowSeconds();
        await store.touch(existing.id, existing.updated_at, url);
      }
      return existing;
    }
    // the runner takes code with this marker for a workflow's steps (runtime/workflow-code.ts)
    if (code.trimStart().startsWith(WORKFLOW_MARKER)) {
      throw new AppError("invalid_component", `component code may not start with ${WORKFLOW_MARKER}`);
    }
    const { bundle, meta } = await this.prepare(code, url);
    if (!owner && !meta.key) throw new AppError("invalid_component", "a registry component needs a `key`");
    const now = nowSeconds();
    const row: ComponentRow = {
      id: newId("sc_"),
      user_id: owner?.id ?? null,
      registry: owner === null,
      key: meta.key ?? null,
      code,
      code_hash: hash,
      component_url: url,
      meta,
      created_at: now,
      updated_at: now,
      bundle,
    };
    await store.insert(row);
    return row;
  }

  /**
   * Code made ready to run: bundled with its packages and files when it needs them, and analyzed.
   * `prefix` goes before a refusal's message (a workflow step's name).
   */
  async prepare(code: string, url: string | null, prefix = ""): Promise<{ bundle: ComponentRow["bundle"]; meta: ComponentMeta }> {
    try {
      const bundled = await this.#deps.bundler.bundle(code, url);
      const bundle = bundled ? { code: bundled.code, hash: sha256Hex(bundled.code), packages: bundled.packages } : null;
      const meta = await this.#deps.analyzer.analyze(bundle?.code ?? code);
      checkMeta(meta);
      return { bundle, meta };
    } catch (e) {
      if (prefix && e instanceof AppError) throw new AppError(e.code, prefix + e.message, e.details);
      throw e;
    }
  }

  /** `sc_` id the user owns (or a registry component), else the user's newest with that key. */
  async get(user: UserRow, keyOrId: string): Promise<ComponentRow> {
    const store = this.#deps.store.components;
    if (keyOrId.startsWith("sc_")) {
      const byId = await store.byId(keyOrId);
      if (byId && (byId.registry || byId.user_id === user.id)) return byId;
    }
    const byKey = await store.byUserKey(user.id, keyOrId);
    if (!byKey) throw notFound("component");
    return byKey;
  }

  /** The description of a component by id; hot (every source view needs it), so kept in memory. */
  async meta(id: string): Promise<ComponentMeta | undefined> {
    const cached = this.#metaCache.get(id);
    if (cached) return cached;
    const row = await this.#deps.store.components.byId(id);
    if (!row) return undefined;
    if (this.#metaCache.size >= 10_000) this.#metaCache.delete(this.#metaCache.keys().next().value!);
    this.#metaCache.set(id, row.meta);
    return row.meta;
  }

  async registry(key: string): Promise<ComponentRow> {
    const found = await this.#deps.store.components.registryByKey(key);
    if (!found) throw notFound("registry component");
    return found;
  }

  /** A page of the user's saved components, or of the registry's when `user` is null; newest first; only of `type` when given. */
  async list(user: UserRow | null, page: PageRequest, type?: ComponentType): Promise<Page<ComponentRow>> {
    const result = await this.#deps.store.components.list(user?.id ?? null, page, type);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }

  /** Publishes the components shipped with the service; unchanged ones are left as they are. */
  async installShipped(shipped: { key: string; code: string }[]): Promise<void> {
    for (const { code } of shipped) await this.saveCode(null, code, null);
  }
}

/** Prop shapes that can't be configured are a problem with the code, found at save time. */
function checkMeta(meta: ComponentMeta): void {
  const seen = new Set<string>();
  for (const p of meta.props) {
    if (seen.has(p.name)) throw new AppError("invalid_component", `prop "${p.name}" is declared twice`);
    seen.add(p.name);
    if (typeof p.type !== "string" || p.type === "") {
      throw new AppError("invalid_component", `prop "${p.name}" has no type`);
    }
  }
  if (meta.dedupe !== undefined && !["unique", "greatest", "last"].includes(meta.dedupe)) {
    throw new AppError("invalid_component", `dedupe must be "unique", "greatest" or "last", not "${meta.dedupe}"`);
  }
}
