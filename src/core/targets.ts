import type { Store } from "../store/port.ts";
import { endpointUrl } from "./endpoint.ts";
import type { Target } from "./target.ts";
import { workflowTarget } from "./workflow-target.ts";

// What an invocation needs about an emitter (its row, owner, component; for a workflow, the
// stand-ins built from its steps), cached because every timer tick, HTTP request and delivery
// asks. Invalidated by every write to the source or workflow.

export class Targets {
  readonly #store: Store;
  readonly #publicUrl: string;
  readonly #byId = new Map<string, Promise<Target | undefined>>();
  readonly #idByKey = new Map<string, string>();

  constructor(store: Store, publicUrl: string) {
    this.#store = store;
    this.#publicUrl = publicUrl;
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

  async byEndpoint(key: string): Promise<Target | undefined> {
    const id = this.#idByKey.get(key);
    if (id) return this.get(id);
    const row = (await this.#store.sources.byEndpointKey(key)) ?? (await this.#store.workflows.byEndpointKey(key));
    if (!row) return undefined;
    this.#idByKey.set(key, row.id);
    return this.get(row.id);
  }

  invalidate(sourceId: string): void {
    this.#byId.delete(sourceId);
    for (const [key, id] of this.#idByKey) if (id === sourceId) this.#idByKey.delete(key);
  }

  async #load(sourceId: string): Promise<Target | undefined> {
    if (sourceId.startsWith("p_")) {
      const w = await this.#store.workflows.byId(sourceId);
      const user = w && (await this.#store.users.byId(w.user_id));
      return w && user ? workflowTarget(w, user, endpointUrl(this.#publicUrl, w.endpoint_key)) : undefined;
    }
    const source = await this.#store.sources.byId(sourceId);
    if (!source) return undefined;
    const [user, component] = await Promise.all([
      this.#store.users.byId(source.user_id),
      this.#store.components.byId(source.component_id),
    ]);
    if (!user || !component) return undefined;
    return { source, user, component, endpointUrl: endpointUrl(this.#publicUrl, source.endpoint_key) };
  }
}
