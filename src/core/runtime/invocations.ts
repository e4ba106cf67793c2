import type { Bus } from "../../bus/port.ts";
import { emitterChannel } from "../../bus/port.ts";
import type { InvocationKind, InvokeLimits, InvokeResult, InvocationError } from "../../runtime/protocol.ts";
import type { Invoker } from "../../runtime/types.ts";
import type { CommitBatch, DeliveryRow, EventRow, RunSendRow, Store, SubscriptionRow } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { AccountAuth } from "../accounts/account-auth.ts";
import type { EnvSnapshots } from "../env-vars/env-snapshots.ts";
import type { CommitPart, CommitQueue } from "./commit-queue.ts";
import { renderItem } from "../event-render.ts";
import { dataStoresOf, runtimeProps } from "./runtime-props.ts";
import type { PendingWrites } from "../data-stores/pending-writes.ts";
import type { Usage } from "./usage.ts";
import { errorPayload, type InvocationContext } from "./error-events.ts";
import { resultPart } from "./result-part.ts";
import { warmUp } from "./warm-up.ts";
import { EventRows, type CachedState } from "./event-rows.ts";
import { fanOut, MAX_HOPS } from "../flow/fan-out.ts";
import type { Routes } from "../flow/routes.ts";
import type { CoreMetrics } from "./metrics.ts";
import { RunTrims } from "../workflows/run-record.ts";
import { RunDriver, type RunOptions } from "../workflows/run-driver.ts";
import { codeOf, isDurable, triggerOf, type Committed, type InvokeOptions, type StepInvocation, type Target } from "./target.ts";
import type { Next } from "../workflows/run-machine.ts";
import { accountFailure, type AccountError } from "../accounts/account-error.ts";
import { storeFailure, unopenableStores } from "../data-stores/store-refs.ts";
import { SecretMasks, type NamedSecret } from "./secret-mask.ts";

// Runs one invocation of an emitter (a source, or a workflow's steps) and commits its result
// (docs/architecture.md): emits ordered by ts and deduped, db and dedupe state, $errors and $logs, usage,
// and the deliveries of the new events to their listeners, all in one transaction; then fans
// the events out on the bus. Results of one emitter are applied in the order their invocations
// were started.

export interface InvocationDeps {
  store: Store;
  invoker: Invoker;
  bus: Bus;
  commits: CommitQueue;
  usage: Usage;
  routes: Routes;
  secrets: SecretBox;
  accounts: AccountAuth;
  /** the owners' environment variables (process.env) */
  env: EnvSnapshots;
  limits: InvokeLimits;
  fetchAllow: string[];
  retention: number;
  /** workflow runs kept per workflow (TRIBUTARY_RUN_RETENTION) */
  runRetention: number;
  version: string;
  /** where resume and cancel URLs point (TRIBUTARY_PUBLIC_URL) */
  publicUrl: string;
  /** a failed workflow step's first retry after this, doubling (docs/writing-workflows.md: 10 s) */
  runRetryMs: number;
  log: (err: unknown, what: string) => void;
  metrics?: CoreMetrics;
  /** what a commit of an emitter's durable work must check (several nodes: its lease) */
  fence?: (emitterId: string) => CommitBatch["fence"];
  /** data store writes of ended runs, held until committed, which reads see (pending-writes.ts) */
  pendingWrites: PendingWrites;
  /** whether $.send.email can send (TRIBUTARY_SMTP_URL) */
  email: boolean;
  /** a workflow run committed here waits until `dueAtMs`: the run waker takes it up then */
  wakeRuns: (dueAtMs: number) => void;
  /** a workflow as one of its deployments runs (targets.ts) */
  deployment: (t: Target, deploymentId: string) => Promise<Target | undefined>;
  /** sends steps queued, committed just now: to be sent */
  sent: (rows: RunSendRow[]) => void;
}

export class Invocations {
  readonly #d: InvocationDeps;
  readonly #rows: EventRows;
  readonly #runTrims = new RunTrims();
  /** what a result shows has the secrets its run used masked (secret-mask.ts) */
  readonly #masks = new SecretMasks();
  readonly #tails = new Map<string, Promise<unknown>>();
  /** deleted emitters: results still in flight for them are dropped, not committed */
  readonly #deleted = new Set<string>();
  /** emitters whose cached state another node changed, reloaded once their results in flight are staged */
  readonly #stale = new Set<string>();
  #stopping = false;
  /** invocations running now, whose results are still to come (the commit queue gathers for them) */
  #running = 0;
  /** told about every committed delivery, so it can be sent at once */
  onDeliveries: (rows: DeliveryRow[]) => void = () => {};
  /** an $errors event of the emitter was committed (the first of a commit's, if several) */
  onError: ((t: Target, row: EventRow) => void) | undefined;
  /** workflow runs, each step an invocation committed before the next (docs/writing-workflows.md) */
  readonly runs: RunDriver;

  constructor(deps: InvocationDeps) {
    this.#d = deps;
    this.#rows = new EventRows(deps.store, deps.retention);
    this.runs = new RunDriver({
      store: deps.store,
      secrets: deps.secrets,
      publicUrl: deps.publicUrl,
      version: deps.version,
      retryBaseMs: deps.runRetryMs,
      email: deps.email,
      step: (t, opts, step) => this.#invoke(t, "run", undefined, { ...opts, step }),
      settleOnly: (t, opts, result, step) => this.#settleOnly(t, opts, result, step),
      halted: (id) => this.#stopping || this.#deleted.has(id),
      wake: deps.wakeRuns,
      deployment: deps.deployment,
      log: deps.log,
    });
  }

  /**
   * `eventJson`: the run's event as JSON text (it is text already in the inbox and deliveries).
   * A workflow's run resolves once it has ended or waits (its steps commit one by one).
   */
  invoke(t: Target, kind: InvocationKind, eventJson: string | undefined, opts: RunOptions = {}): Promise<InvokeResult> {
    if (t.workflow && kind === "run" && !opts.dryRun && !opts.step) return this.runs.start(t, eventJson, opts);
    return this.#invoke(t, kind, eventJson, opts).then((done) => done.result);
  }

  /** An invocation's result once committed; a workflow step's also says what its run does next. */
  async #invoke(t: Target, kind: InvocationKind, eventJson: string | undefined, opts: InvokeOptions): Promise<Committed> {
    const step = opts.step;
    // a step runs with its run's trigger event, whatever resumed it
    if (step) eventJson = step.ctx.eventJson;
    opts = this.#withFence(t, opts);
    // counted as running before the first await, so the next quota check already sees it
    if (!opts.dryRun) this.#d.usage.begin(t.user);
    // props may need a read (a connected account's auth): read along with the state
    let accountError: AccountError | undefined;
    const cellId = step?.run.step !== undefined ? t.workflow?.steps[step.run.step]?.id : undefined;
    const propSecrets: NamedSecret[] = [];
    const props = runtimeProps(t, this.#d.secrets, this.#d.accounts, (e) => (accountError ??= e), cellId, propSecrets);
    // the owner's process.env: from memory, read only after a change (env-snapshots.ts)
    const env = this.#d.env.forRun(t.user.id);
    // the stores it opens are the user's still (saved so, but deleted or not, checked each run)
    const dataStores = dataStoresOf(t, cellId);
    const refusedStores = dataStores && unopenableStores(this.#d.store.dataStores, t.user.id, dataStores);
    const [state, propValues, { text: envText, secrets: envSecrets }, unopenable] = await Promise.all([this.#rows.state(t.source), props, env, refusedStores]).catch((e: unknown) => {
      if (!opts.dryRun) this.#d.usage.end(t.user);
      throw e;
    });
    const ctx: InvocationContext = step ? step.ctx : { kind, startedAt: Date.now(), eventJson, trigger: triggerOf(opts) };
    if (step) propValues.$run = step.run;
    const mask = this.#masks.of(envSecrets, propSecrets);
    const refused = accountError ? accountFailure(accountError, cellId) : unopenable?.length ? storeFailure(unopenable, cellId) : undefined;
    const pending = refused ? Promise.resolve(refused) : this.#d.invoker.invoke({
      sourceId: t.source.id,
      // a workflow's runs go side by side, each run's steps in order
      ...(step ? { orderKey: step.ctx.runId } : {}),
      owner: t.user.id,
      ...(opts.timerNextDueMs !== undefined && Number.isFinite(opts.timerNextDueMs) ? { nextUseAt: opts.timerNextDueMs } : {}),
      ...codeOf(t),
      kind,
      ...(eventJson === undefined ? {} : { eventJson }),
      props: propValues,
      ...(envText === undefined ? {} : { env: envText }),
      db: state.row.db,
      dbEpoch: state.epoch,
      limits: this.#d.limits,
      fetchAllow: this.#d.fetchAllow,
      ...(dataStores ? { dataStores } : {}),
      ...(step?.onRespond ? { onRespond: step.onRespond } : {}),
      durable: isDurable(opts),
      fresh: () => ({ db: state.row.db, dbEpoch: state.epoch }),
    });
    this.#running += 1;
    // Its data store writes are seen by the reads of the runs after it from when it ends until its
    // commit is done (then they are the store's, or never will be)
    const releaseWrites = this.#d.pendingWrites.track(pending, dataStores, opts.dryRun === true);
    void pending.then(
      () => (this.#running -= 1),
      () => (this.#running -= 1),
    );
    const metrics = this.#d.metrics;
    if (metrics) void pending.then((r) => metrics.invocation(kind, !r.error, r.wallMs));
    // masked once, here: the step's rows, $logs and $errors are all written from this result
    const shown = mask ? pending.then((r) => mask.result(r)) : pending;
    if (opts.dryRun) return shown.then((result) => ({ result }));
    const done = this.#inOrder(t, state, ctx, shown, opts);
    if (dataStores) void done.then(releaseWrites, releaseWrites);
    return done;
  }

  /** Starts the source's context on its runner ahead of its first run (warm-up.ts). */
  warm(t: Target, nextUseAt: number): Promise<void> {
    return warmUp(this.#d, t, nextUseAt);
  }

  /** Commits the result of a dry run (a hook of a source that now exists). */
  commit(t: Target, kind: InvocationKind, startedAt: number, result: InvokeResult): Promise<void> {
    return this.#commitResult(t, { kind, startedAt, eventJson: undefined, trigger: "EMIT" }, result, {});
  }

  /** Commits a workflow run's change that ran no step (its end, a suspension's timeout). */
  #settleOnly(t: Target, opts: InvokeOptions, result: InvokeResult, step: StepInvocation): Promise<void> {
    return this.#commitResult(t, step.ctx, result, this.#withFence(t, { ...opts, step }));
  }

  /** Commits a result that no invocation here produced, in the emitter's order. */
  async #commitResult(t: Target, ctx: InvocationContext, result: InvokeResult, opts: InvokeOptions): Promise<void> {
    const state = await this.#rows.state(t.source);
    this.#d.usage.begin(t.user);
    await this.#inOrder(t, state, ctx, Promise.resolve(result), opts);
  }

  /** Records a refusal (quota...) on the emitter's $errors stream. */
  async recordError(t: Target, kind: InvocationKind, error: InvocationError): Promise<void> {
    const state = await this.#rows.state(t.source);
    const ctx: InvocationContext = { kind, startedAt: Date.now(), eventJson: undefined, trigger: "EMIT" };
    const subs = await this.#d.routes.forUser(t.user.id);
    const row = this.#rows.event(t, state, "$errors", errorPayload(t, ctx, error, this.#d.version), {}, ctx.startedAt);
    await this.#stage(t, state, [row], [row.payload], subs, 0, { states: [this.#rows.snapshot(state)] }, ctx);
  }

  /**
   * A run whose result can't be committed for a reason other than the store being unavailable
   * (a value the store refuses, a bug): it is recorded on $errors with its event, and its inbox
   * row or delivery is consumed in the same transaction, so it is never replayed into the same
   * failure and what was accepted can still be found.
   */
  async setAside(t: Target, eventJson: string | undefined, opts: InvokeOptions, message: string): Promise<void> {
    opts = this.#withFence(t, opts);
    const state = await this.#rows.state(t.source);
    const ctx: InvocationContext = { kind: "run", startedAt: Date.now(), eventJson, trigger: triggerOf(opts) };
    const subs = await this.#d.routes.forUser(t.user.id);
    const error = { name: "InternalError", message, stack: "" };
    const row = this.#rows.event(t, state, "$errors", errorPayload(t, ctx, error, this.#d.version), {}, ctx.startedAt);
    const part: CommitPart = { states: [this.#rows.snapshot(state)] };
    if (opts.inboxSeq !== undefined) part.inboxDone = [opts.inboxSeq];
    if (opts.delivery) part.deliveriesDone = [opts.delivery.id];
    if (opts.fence) part.fence = opts.fence;
    await this.#stage(t, state, [row], [row.payload], subs, opts.delivery?.hops ?? 0, part, ctx);
  }

  /** Invocations running now: results on their way to the commit queue. */
  get running(): number {
    return this.#running;
  }

  /** The newest event id given out for the emitter so far, when it is known here. */
  lastKey(emitterId: string): { ms: number; n: number } | undefined {
    return this.#rows.lastKey(emitterId);
  }

  /**
   * The service is stopping: results that arrive from now on are not committed. Closing the
   * runners fails the invocations they hold, and those failures must not consume their inbox,
   * delivery or timer rows; the next start runs them again instead.
   */
  stop(): void {
    this.#stopping = true;
  }

  /**
   * Another node wrote the emitter's state (its hooks ran there): read it again from the store
   * before the next run, but not under results in flight (their ids are given out already).
   */
  refresh(emitterId: string): void {
    if (this.#tails.has(emitterId)) this.#stale.add(emitterId);
    else this.#rows.reload(emitterId);
  }

  /** Forgets the cached state of the emitters `which` picks (their partition changed hands). */
  reloadWhere(which: (emitterId: string) => boolean): void {
    this.#rows.reloadWhere(which);
  }

  /** Forgets a deleted emitter (after its rows are gone). */
  forget(emitterId: string): void {
    this.#rows.forget(emitterId);
    this.#deleted.add(emitterId);
  }

  #inOrder(t: Target, state: CachedState, ctx: InvocationContext, pending: Promise<InvokeResult>, opts: InvokeOptions): Promise<Committed> {
    // a source's results stage in the order its invocations started; a workflow's, per run
    const id = opts.step ? `${t.source.id}/${opts.step.ctx.runId}` : t.source.id;
    const prev = this.#tails.get(id) ?? Promise.resolve();
    // The chain orders only the staging of results (ids, dedupe, state, queueing the commit), not
    // the commits themselves: results of one busy emitter then share group commits.
    const staged = prev.then(async () => {
      const result = await pending;
      const subs = await this.#d.routes.forUser(t.user.id).catch((e: unknown) => {
        // No result of this run is counted now: it must stop counting as running, or the
        // owner's quota check would count it for good (every later day included).
        this.#d.usage.end(t.user);
        throw e;
      });
      // #apply runs synchronously up to queueing its commit, so the queue keeps chain order
      const committed = this.#apply(t, state, ctx, result, opts, subs);
      return { result, committed };
    });
    const tail = staged.catch(() => {});
    this.#tails.set(id, tail);
    void tail.then(() => {
      if (this.#tails.get(id) !== tail) return;
      this.#tails.delete(id);
      if (this.#stale.delete(id)) this.#rows.reload(id);
    });
    return staged.then(async ({ result, committed }) => ({ result, next: await committed }));
  }

  /** Stages the result's commit; resolves once committed, with what a workflow step's run does next. */
  #apply(t: Target, state: CachedState, ctx: InvocationContext, r: InvokeResult, opts: InvokeOptions, subs: SubscriptionRow[]): Promise<Next | undefined> {
    if (this.#deleted.has(t.source.id) || this.#stopping) {
      this.#d.usage.end(t.user);
      return Promise.resolve(undefined);
    }
    const step = opts.step;
    // counted first, so that nothing below can leave the run counted as running
    const usage = this.#d.usage.add(t.user, r.wallMs, step && !step.countsRun ? 0 : 1);
    // a workflow step's commit writes its run's state with its events (each step commits before the next)
    const record = step?.settle(r, Date.now());
    // at a run's first step wherever it runs: a run started by Run now, a replay or a retry starts from the queue
    const trimRunsTo = record && step!.countsRun && this.#runTrims.due(record.run.workflow_id) ? this.#d.runRetention : undefined;
    const { events: rows, delivered, part } = resultPart({ t, state, ctx, result: r, opts, record, usage, rows: this.#rows, version: this.#d.version, trimRunsTo, now: Date.now() });
    const staged = this.#stage(t, state, rows, delivered, subs, opts.delivery?.hops ?? 0, part, ctx);
    const sends = record?.sends;
    return staged.then(() => {
      if (sends) this.#d.sent(sends);
      return record?.next;
    });
  }

  // Durable work (an inbox row, a delivery, a timer tick, a workflow run's step) is the partition
  // owner's: its commit checks the lease, so a node that lost it can't consume the row the new
  // owner runs.
  #withFence(t: Target, opts: InvokeOptions): InvokeOptions {
    const fence = isDurable(opts) && !opts.fence ? this.#d.fence?.(t.source.id) : undefined;
    return fence ? { ...opts, fence } : opts;
  }


  // Adds the deliveries of the rows (or, past the hop limit, one $errors row instead), the trims,
  // and queues the commit; after it, publishes the rows and hands the deliveries on.
  async #stage(
    t: Target,
    state: CachedState,
    rows: EventRow[],
    delivered: string[],
    subs: SubscriptionRow[],
    hops: number,
    part: CommitPart,
    ctx: InvocationContext,
  ): Promise<void> {
    const now = Date.now();
    const out = fanOut(t.source, rows, delivered, subs, hops + 1, now);
    if (out.tooDeep) {
      const error = {
        name: "HopLimitExceeded",
        message: `these events were not delivered: the delivery chain is deeper than ${MAX_HOPS} hops`,
        stack: "HopLimitExceeded",
      };
      rows.push(this.#rows.event(t, state, "$errors", errorPayload(t, ctx, error, this.#d.version), {}, now));
    }
    part.events = rows;
    part.deliveries = out.deliveries;
    part.trims = this.#rows.trims(t.source.id, rows);
    try {
      // a workflow step's run goes on (or answers) only once this commit is done; a part that
      // writes the emitter's state or events depends on the state it was computed on
      const basis = part.states || rows.length > 0 ? { emitter: t.source.id, epoch: state.epoch } : undefined;
      await this.#d.commits.add(part, { urgent: part.runs !== undefined, ...(basis ? { basis } : {}) });
    } catch (e) {
      // The in-memory state ran ahead of the store; start again from what the store has.
      this.#rows.reload(t.source.id);
      throw e;
    }
    const channel = emitterChannel(t.source.id);
    if (this.#d.bus.watched(channel)) {
      for (const row of rows) {
        this.#d.bus.publish(channel, { eventName: row.event_name, id: `${row.ms}-${row.n}`, item: renderItem(row, true) });
      }
    }
    if (out.deliveries.length > 0) this.onDeliveries(out.deliveries);
    if (this.onError) {
      const failed = rows.find((r) => r.event_name === "$errors");
      // committed already: whatever the listener does, the result stands
      if (failed) {
        try {
          this.onError(t, failed);
        } catch (e) {
          this.#d.log(e, `error listener of ${t.source.id}`);
        }
      }
    }
  }
}
