import type { CoreDeps } from "./deps.ts";
import { Users } from "./users.ts";
import { Components } from "./components.ts";
import { Sources } from "./sources.ts";
import { Subscriptions } from "./subscriptions.ts";

/** The domain, as the HTTP layer (and later the runtime) sees it. */
export class Core {
  readonly users: Users;
  readonly components: Components;
  readonly sources: Sources;
  readonly subscriptions: Subscriptions;

  constructor(deps: CoreDeps) {
    this.users = new Users(deps);
    this.components = new Components(deps);
    this.sources = new Sources(deps, this.components);
    this.subscriptions = new Subscriptions(deps.store);
  }
}
