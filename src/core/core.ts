import type { CoreDeps } from "./deps.ts";
import { Users } from "./users.ts";
import { Components } from "./components.ts";
import { Sources } from "./sources.ts";
import { Subscriptions } from "./subscriptions.ts";
import { SourceRuntime } from "./runtime/source-runtime.ts";
import { Events } from "./events.ts";
import { Workflows } from "./workflows/workflows.ts";
import { Webhooks } from "./webhooks.ts";
import { Accounts } from "./accounts/accounts.ts";
import { OAuthApps } from "./accounts/oauth-apps.ts";
import { OAuthConnect } from "./accounts/oauth-connect.ts";
import { EnvVars } from "./env-vars/env-vars.ts";
import { DataStores } from "./data-stores/data-stores.ts";
import { DataStoreSweep } from "./data-stores/sweep.ts";
import { Runs } from "./workflows/runs.ts";
import { RunActions } from "./workflows/run-actions.ts";
import { RunMasks } from "./workflows/run-masks.ts";
import { DynamicProps } from "./dynamic-props.ts";
import { AppHooks } from "./app-events/app-hooks.ts";

/** The domain, as the HTTP layer (and later the runtime) sees it. */
export class Core {
  readonly users: Users;
  readonly components: Components;
  /** a props form's questions: a prop's options, the props additionalProps() adds */
  readonly dynamicProps: DynamicProps;
  readonly sources: Sources;
  readonly subscriptions: Subscriptions;
  readonly runtime: SourceRuntime;
  readonly events: Events;
  readonly workflows: Workflows;
  /** workflow runs: read, replayed, cancelled */
  readonly runs: Runs;
  /** what changes runs from outside the engine: replays, cancels, resume and cancel URLs */
  readonly runActions: RunActions;
  readonly webhooks: Webhooks;
  readonly accounts: Accounts;
  /** app events: what apps send to accounts' app-events URLs, delivered to apphook props */
  readonly appHooks: AppHooks;
  readonly oauthApps: OAuthApps;
  readonly oauthConnect: OAuthConnect;
  /** the users' environment variables (process.env in their runs) */
  readonly envVars: EnvVars;
  readonly dataStores: DataStores;
  /** removes expired data store records every minute; started and stopped with the HTTP server */
  readonly dataStoreSweep: DataStoreSweep;

  constructor(deps: CoreDeps) {
    this.runtime = new SourceRuntime(deps);
    this.users = new Users(deps, this.runtime.usage);
    this.users.onGone = (id, userId) => this.runtime.gone(id, userId);
    this.components = new Components(deps);
    this.dynamicProps = new DynamicProps(deps, this.components, this.runtime);
    this.sources = new Sources(deps, this.components, this.runtime, this.dynamicProps);
    this.workflows = new Workflows(deps, this.runtime, this.components);
    this.runActions = new RunActions({ store: deps.store, secrets: deps.secrets, runtime: this.runtime, version: deps.version });
    this.runs = new Runs(deps.store, (user, id) => this.workflows.get(user, id), {
      runNow: (user, w, event) => this.runActions.runNow(user, w, event),
      replay: (user, w, run, deployment) => this.runActions.replay(user, w, run, deployment),
      retry: (user, w, run, opts) => this.runActions.retry(user, w, run, opts),
      cancel: (run) => this.runActions.cancel(run),
      resume: (run, request) => this.runActions.resume(run, request),
    });
    this.webhooks = new Webhooks(deps, this.runtime);
    this.accounts = new Accounts(deps, this.runtime.accountAuth, this.components);
    this.appHooks = new AppHooks(deps, this.components, this.accounts, this.runtime, this.dynamicProps);
    this.oauthApps = new OAuthApps(deps);
    this.oauthConnect = new OAuthConnect(deps, this.oauthApps, this.runtime.accountAuth, (err, what) => this.runtime.log(err, what));
    this.envVars = new EnvVars(deps, this.runtime.env, (userId) => this.runtime.changed(userId));
    // the run API masks the secrets a run used in the values it shows
    const runMasks = new RunMasks({ store: deps.store, secrets: deps.secrets, accounts: this.runtime.accountAuth, env: this.runtime.env });
    this.runs.masks = (run) => runMasks.of(run);
    this.dataStores = new DataStores(deps.store);
    this.dataStoreSweep = new DataStoreSweep(deps.store);
    this.events = new Events(
      deps.store,
      { source: (user, id) => this.sources.get(user, id), workflow: (user, id) => this.workflows.get(user, id) },
      (id) => this.runtime.invocations.lastKey(id),
    );
    this.subscriptions = new Subscriptions(deps.store, this.runtime.routes);
    // several nodes: a change made here reaches the others' caches, and theirs reach ours
    this.subscriptions.onChanged = (userId) => this.runtime.changed(userId);
    this.users.onChanged = (userId) => this.runtime.changed(userId);
    this.runtime.onUserChanged((userId) => this.users.forgetCached(userId));
  }
}
