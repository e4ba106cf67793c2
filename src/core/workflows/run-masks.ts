import type { RunRow, Store } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { AccountAuth } from "../accounts/account-auth.ts";
import type { EnvSnapshots } from "../env-vars/env-snapshots.ts";
import { workflowSecrets } from "../runtime/runtime-props.ts";
import { SecretMasks, type NamedSecret, type SecretMask } from "../runtime/secret-mask.ts";

// A run's logs, errors and summary are masked when they are written (invocations.ts); its steps'
// return values and exports are stored as they are, since the steps after read them, and masked
// where the run API shows them (runs.ts `view`). This builds that mask, once per request: from the
// owner's secret env vars (kept in memory), and the secret props and accounts of the run's
// deployment's steps and of the current one.

export interface RunMaskDeps {
  store: Store;
  secrets: SecretBox;
  accounts: AccountAuth;
  env: EnvSnapshots;
}

export class RunMasks {
  readonly #d: RunMaskDeps;
  readonly #masks = new SecretMasks();

  constructor(deps: RunMaskDeps) {
    this.#d = deps;
  }

  /** the mask of what `run` may show, or undefined when its owner and workflow have no secrets */
  async of(run: RunRow): Promise<SecretMask | undefined> {
    const { store, secrets, accounts, env } = this.#d;
    const [envRun, w, pinned] = await Promise.all([
      env.forRun(run.user_id),
      store.workflows.byId(run.workflow_id),
      store.workflows.deployment(run.workflow_id, run.deployment_id),
    ]);
    const stepLists = [w?.steps, pinned?.steps].filter((s) => s !== undefined);
    const found: NamedSecret[][] = await Promise.all(stepLists.map((steps) => workflowSecrets(steps, run.user_id, secrets, accounts)));
    return this.#masks.of(envRun.secrets, ...found);
  }
}
