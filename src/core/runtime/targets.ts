import type { ComponentRow, Store } from "../../store/port.ts";
import { endpointUrl } from "../endpoint.ts";
import type { Target } from "./target.ts";
import { workflowTarget } from "../workflows/workflow-target.ts";

// What an invocation needs about an emitter (its row, owner, component; for a workflow, the
// stand-ins built from its steps), cached because every timer tick, HTTP request and delivery
// asks. Invalidated by every write to the source or workflow.

/** earlier deployments' targets held at once (runs that started on them and wait are rows, not these) */
const MAX_DEPLOYMENTS = 256;

export class Targets {
  readonly #store: Store;
  readonly #publicUrl: string;
  readonly #byId = new Map<string, Promise<Target | undefined>>();
  readonly #idByKey = new Map<string, string>();
  /**
   * Component rows by id, shared by every source of a component: a row carries the code and the
   * bundle (hundreds of KiB with packages), which must not be held once per source. A component
   * never changes once saved, so entries need no invalidation; the count is bounded.
   */
  readonly #components = new Map<string, Promise<ComponentRow | undefined>>();

  constructor(store: Store, publicUrl: string) {
    this.#store = store;
    this.#publicUrl = publicUrl;
  }

  /** deployments' targets, by `<current deployment>/<deployment>`: a deployment never changes */
  readonly #deployments = new Map<string, Promise<Target | undefined>>();

  /**
   * The workflow `t` as its deployment `deploymentId` runs (a run executes the deployment it
   * started on to its end); undefined when that deployment is no longer kept.
   */
  deployment(t: Target, deploymentId: string): Promise<Target | undefined> {
    const w = t.workflow!;
    if (w.deployment_id === deploymentId) return Promise.resolve(t);
    const key = `${w.deployment_id}/${deploymentId}`;
    let pinned = this.#deployments.get(key);
    if (!pinned) {
      if (this.#deployments.size >= MAX_DEPLOYMENTS) this.#deployments.delete(this.#deployments.keys().next().value!);
      pinned = this.#store.workflows.deployment(w.id, deploymentId).then((d) => d && workflowTarget({ ...w, deployment_id: d.id, trigger: d.trigger, steps: d.steps, settings: d.settings }, t.user, t.endpointUrl));
      this.#deployments.set(key, pinned);
      pinned.catch(() => this.#deployments.delete(key));
    }
    return pinned;
  }

  get(sourceId: string): Promise<Target | undefined> {
    let t = this.#byId.get(sourceId);
    if (!t) {
      t = this.#load(sourceId);
      this.#byId.set(sourceId, t);
      t.catch(() => this.#byId.delete(sourceId));
    }
    return t;
  }

  /**
   * The source or workflow of an endpoint key, whatever its case (keys are stored lower-case;
   * Pipedream's SDK lower-cases the URLs it is given). A key stored with upper-case letters (one
   * migration 008 had to leave, or one an older node made during a rolling upgrade) is still
   * found by its exact text.
   */
  async byEndpoint(key: string): Promise<Target | undefined> {
    const lower = key.toLowerCase();
    const id = this.#idByKey.get(lower) ?? this.#idByKey.get(key);
    if (id) return this.get(id);
    const find = async (k: string) => (await this.#store.sources.byEndpointKey(k)) ?? (await this.#store.workflows.byEndpointKey(k));
    let row = await find(lower);
    let cacheKey = lower;
    if (!row && lower !== key) {
      row = await find(key);
      cacheKey = key;
    }
    if (!row) return undefined;
    this.#idByKey.set(cacheKey, row.id);
    return this.get(row.id);
  }

  invalidate(sourceId: string): void {
    this.#byId.delete(sourceId);
    for (const [key, id] of this.#idByKey) if (id === sourceId) this.#idByKey.delete(key);
  }

  /** the ids of the emitters cached here */
  cachedIds(): string[] {
    return [...this.#byId.keys()];
  }

  /** Drops the cached emitters `which` picks (their partition changed hands: read them afresh). */
  invalidateWhere(which: (sourceId: string) => boolean): void {
    for (const id of [...this.#byId.keys()]) if (which(id)) this.invalidate(id);
  }

  async #load(sourceId: string): Promise<Target | undefined> {
    if (sourceId.startsWith("p_")) {
      const w = await this.#store.workflows.byId(sourceId);
      const user = w && (await this.#store.users.byId(w.user_id));
      return w && user ? workflowTarget(w, user, endpointUrl(this.#publicUrl, w.endpoint_key)) : undefined;
    }
    const source = await this.#store.sources.byId(sourceId);
    if (!source) return undefined;
    const [user, component] = await Promise.all([this.#store.users.byId(source.user_id), this.#component(source.component_id)]);
    if (!user || !component) return undefined;
    return { source, user, component, endpointUrl: endpointUrl(this.#publicUrl, source.endpoint_key) };
  }

  #component(id: string): Promise<ComponentRow | undefined> {
    let row = this.#components.get(id);
    if (!row) {
      row = this.#store.components.byId(id);
      if (this.#components.size >= MAX_COMPONENTS) this.#components.delete(this.#components.keys().next().value!);
      this.#components.set(id, row);
      row.then((r) => (r ? undefined : this.#components.delete(id)), () => this.#components.delete(id));
    }
    return row;
  }
}

const MAX_COMPONENTS = 5000;
