import type { Bus } from "../../bus/port.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { emitterChannel } from "../../bus/port.ts";
import type { SourceRow, UserRow } from "../../store/port.ts";
import type { CoreDeps } from "../deps.ts";
import { CommitQueue } from "./commit-queue.ts";
import { InboxQueue } from "../flow/inbox-queue.ts";
import { InboxPump } from "../flow/inbox-pump.ts";
import { Capacity } from "../flow/capacity.ts";
import { EdgeFirst } from "../flow/edge-first.ts";
import { Ingress } from "../flow/ingress.ts";
import { Invocations } from "./invocations.ts";
import type { Target } from "./target.ts";
import { Lifecycle } from "./lifecycle.ts";
import { Quotas } from "./quotas.ts";
import { Targets } from "./targets.ts";
import { TokenRefresher } from "../accounts/token-refresh.ts";
import { AccountAuth } from "../accounts/account-auth.ts";
import { PendingWrites } from "../data-stores/pending-writes.ts";
import { EnvSnapshots } from "../env-vars/env-snapshots.ts";
import { Timers, timerEvent, timerOf } from "../flow/timers.ts";
import { Usage } from "./usage.ts";
import { endpointUrl } from "../endpoint.ts";
import type { ComponentRow } from "../../store/port.ts";
import { Routes } from "../flow/routes.ts";
import { Deliveries } from "../flow/deliveries.ts";
import { WebhookSender } from "../flow/webhook-sender.ts";
import { noMetrics } from "./metrics.ts";
import { SoleOwnership, type Ownership } from "../cluster/ownership.ts";
import { Announcements } from "../cluster/announcements.ts";
import { Backlog } from "../flow/backlog.ts";
import { NodeWork } from "../cluster/node-work.ts";
import { RunWaker } from "../workflows/run-waker.ts";
import { RunSender } from "../workflows/run-sender.ts";
import { smtpMailer } from "../../lib/mailer.ts";
import { ErrorMail } from "./error-mail.ts";

// Everything that makes sources and workflows run, wired once: invocations and their commits,
// hooks, timers, the HTTP ingress, quotas, and the deliveries of events to listeners. Sources
// and Workflows call in here on every change of theirs.

export class SourceRuntime {
  readonly usage = new Usage();
  readonly targets: Targets;
  /** connected accounts' auth, as runs read it */
  readonly accountAuth: AccountAuth;
  /** each user's environment variables, as runs carry them */
  readonly env: EnvSnapshots;
  readonly invocations: Invocations;
  /** runs' data store writes not committed yet, which data store reads see */
  readonly pendingWrites = new PendingWrites();
  readonly lifecycle: Lifecycle;
  readonly timers: Timers;
  readonly quotas: Quotas;
  readonly ingress: Ingress;
  readonly bus: Bus;
  readonly routes: Routes;
  readonly deliveries: Deliveries;
  readonly capacity: Capacity;
  readonly edgeFirst: EdgeFirst;
  /** the bound on accepted runs waiting (TRIBUTARY_MAX_BACKLOG) */
  readonly backlog: Backlog;
  readonly pump: InboxPump;
  /** takes waiting workflow runs up again when they are due */
  readonly runWaker: RunWaker;
  readonly runSender: RunSender;
  readonly ownership: Ownership;
  readonly #deps: CoreDeps;
  readonly #announce: Announcements;
  readonly #node: NodeWork;
  readonly #commits: CommitQueue;
  /** where failures nobody awaits are reported (the service's logger, once it exists) */
  log: (err: unknown, what: string) => void = () => {};

  constructor(deps: CoreDeps) {
    this.#deps = deps;
    this.bus = deps.bus;
    this.ownership = deps.ownership ?? new SoleOwnership("local");
    const owns = (id: string) => this.ownership.owns(id);
    this.#announce = new Announcements(deps.bus);
    const metrics = deps.metrics ?? noMetrics;
    this.#commits = new CommitQueue(deps.store, metrics);
    this.targets = new Targets(deps.store, deps.publicUrl);
    this.routes = new Routes(deps.store);
    // SQLite has one writer, this process, so a cached account is exact; PostgreSQL has others
    const refresher = new TokenRefresher(deps.store.accounts, deps.store.oauthApps, deps.secrets);
    this.accountAuth = new AccountAuth(deps.store.accounts, deps.secrets, deps.store.kind === "sqlite" ? Infinity : 1000, refresher);
    // changes made on other nodes come over the bus (below); the TTL covers a message lost
    this.env = new EnvSnapshots(deps.store.envVars, deps.secrets, deps.store.kind === "sqlite" ? Infinity : 60_000);
    this.invocations = new Invocations({
      store: deps.store,
      invoker: deps.invoker,
      bus: deps.bus,
      commits: this.#commits,
      usage: this.usage,
      routes: this.routes,
      version: deps.version,
      secrets: deps.secrets,
      accounts: this.accountAuth,
      env: this.env,
      pendingWrites: this.pendingWrites,
      email: deps.smtp !== undefined,
      sent: (rows) => this.runSender.kick(rows),
      wakeRuns: (dueAtMs) => this.runWaker.arm(dueAtMs),
      deployment: (t, deploymentId) => this.targets.deployment(t, deploymentId),
      limits: deps.limits,
      fetchAllow: [...deps.fetchAllow],
      retention: deps.retention,
      runRetention: deps.runRetention,
      runRetryMs: deps.runRetryMs,
      publicUrl: deps.publicUrl,
      log: (err, what) => this.log(err, what),
      metrics,
      fence: (id) => this.ownership.fence(id),
    });
    this.#commits.expecting = () => this.invocations.running;
    this.lifecycle = new Lifecycle(this.invocations);
    // one SMTP transport for $.send.email and the error emails
    const mailer = deps.smtp ? smtpMailer(deps.smtp.url, deps.smtp.from) : undefined;
    this.runWaker = new RunWaker({
      store: deps.store,
      targets: this.targets,
      driver: this.invocations.runs,
      holds: (p) => this.ownership.holds(p),
      log: (err, what) => this.log(err, what),
    });
    this.runSender = new RunSender({
      store: deps.store,
      holds: (p) => this.ownership.holds(p),
      fetchAllow: deps.fetchAllow,
      backoffMs: deps.webhookBackoffMs,
      ...(mailer ? { mailer } : {}),
      log: (err, what) => this.log(err, what),
    });
    if (mailer && deps.errorEmails) {
      const errorMail = new ErrorMail({ store: deps.store, mailer, publicUrl: deps.publicUrl, log: (err, what) => this.log(err, what) });
      this.invocations.onError = (t, row) => errorMail.failed(t, row);
    }
    this.quotas = new Quotas(this.usage, this.invocations, deps.store.users);
    const log = (err: unknown, what: string) => this.log(err, what);
    this.timers = new Timers(deps.store, this.invocations, this.quotas, log, owns);
    this.capacity = new Capacity(deps.backlog.maxInFlight, deps.backlog.maxInFlightBytes);
    this.backlog = new Backlog(deps.store, { max: deps.backlog.maxWaiting ?? 0, holdMs: deps.backlog.holdMs ?? 0 });
    // an inbox row consumed is room in the backlog, the moment its commit is done
    this.#commits.onInboxDone = (n) => this.backlog.done(n);
    this.edgeFirst = new EdgeFirst(this.capacity, deps.backlog.edgeLagMs ?? 0, () => this.backlog.refusing);
    this.pump = new InboxPump({
      store: deps.store,
      targets: this.targets,
      invocations: this.invocations,
      capacity: this.capacity,
      log,
      owns,
      announce: (id) => this.#announce.add("inbox", id),
    });
    this.ingress = new Ingress(this.targets, this.invocations, this.quotas, new InboxQueue(deps.store), this.pump, {
      ownership: this.ownership,
      peers: deps.peers,
      backlog: this.backlog,
    });
    this.deliveries = new Deliveries({
      store: deps.store,
      commits: this.#commits,
      targets: this.targets,
      invocations: this.invocations,
      quotas: this.quotas,
      webhooks: new WebhookSender(deps.secrets, deps.fetchAllow, metrics),
      capacity: this.capacity,
      backoffMs: deps.webhookBackoffMs,
      maxPending: deps.webhookMaxPending ?? 10_000,
      log,
      owns,
      announce: (id) => this.#announce.add("deliveries", id),
    });
    this.invocations.onDeliveries = (rows) => this.deliveries.add(rows);
    this.#node = new NodeWork({
      store: deps.store,
      bus: deps.bus,
      ownership: this.ownership,
      pump: this.pump,
      deliveries: this.deliveries,
      timers: this.timers,
      invocations: this.invocations,
      runWaker: this.runWaker,
      runSender: this.runSender,
      targets: this.targets,
      routes: this.routes,
      usage: this.usage,
      forget: (id, userId) => this.#forget(id, userId),
      log,
    });
    this.#node.onUserChanged((userId) => this.env.drop(userId));
  }

  target(source: SourceRow, user: UserRow, component: ComponentRow): Target {
    return { source, user, component, endpointUrl: endpointUrl(this.#deps.publicUrl, source.endpoint_key) };
  }

  /**
   * At start: runs what was accepted but not finished before the last stop, arms timers, and
   * sends the deliveries still queued (for what this node runs: everything, on one node).
   */
  start(): Promise<void> {
    this.edgeFirst.start();
    return this.#node.start();
  }

  /**
   * Something of `userId` (the emitter `emitterId`, or their subscriptions, lists or keys)
   * changed on this node, which has already dropped what it cached: the other nodes do the same.
   */
  changed(userId: string, emitterId?: string): void {
    this.#node.changed(userId, emitterId);
    // Enabled again here: runs it accepted before it was disabled still wait in the inbox, and
    // nothing else would read them (a read finds nothing, or a disabled source, and stops).
    if (emitterId) this.pump.wake(emitterId);
  }

  /** `listener` hears of changes made on other nodes (a cache to drop) */
  onUserChanged(listener: (userId: string) => void): void {
    this.#node.onUserChanged(listener);
  }

  /**
   * POST /sources/{id}/run and /workflows/{id}/run (the caller has checked ownership): durably
   * accepts a run with `event`, or a timer event for a timer emitter given none.
   */
  async runNow(id: string, event: unknown, what: "source" | "workflow"): Promise<void> {
    const t = await this.targets.get(id);
    if (!t) throw notFound(what);
    // it would only wait in the inbox until enabled, and its endpoint takes nothing meanwhile
    if (!t.source.active) throw new AppError("conflict", `this ${what} is disabled: enable it (active: true) to run it`);
    const timer = timerOf(t);
    if (!(await this.acceptRun(t, event === undefined && timer ? timerEvent(timer, Date.now()) : event))) {
      throw new AppError("quota_exceeded", "this account has used up its daily quota");
    }
  }

  /**
   * A run of `t` with `event` counted against its owner's daily quota and durably accepted into
   * the inbox (Ingress.enqueue; it runs in the background): false when the quota is used up (the
   * refusal is recorded on the source's $errors). Throws when it can't be accepted (overloaded,
   * the store failing); its quota reservation is given back then.
   */
  async acceptRun(t: Target, event: unknown): Promise<boolean> {
    if (!(await this.quotas.admit(t, "run"))) return false;
    try {
      await this.ingress.enqueue(t, event);
    } catch (e) {
      await this.quotas.release(t).catch(() => undefined);
      throw e;
    }
    return true;
  }

  /** A source or workflow was deleted: stop everything of it and end its live streams. */
  gone(sourceId: string, userId: string): void {
    this.changed(userId, sourceId);
    this.#forget(sourceId, userId);
  }

  // what a deletion stops on this node (made here, or on another node that told this one)
  #forget(sourceId: string, userId: string): void {
    this.routes.invalidate(userId);
    this.deliveries.drop(sourceId);
    this.pump.drop(sourceId);
    this.timers.cancel(sourceId);
    this.targets.invalidate(sourceId);
    this.invocations.forget(sourceId);
    this.bus.end(emitterChannel(sourceId));
  }

  /**
   * A run of the workflow was resumed or cancelled through this node (its row says so already):
   * the node that drives the workflow's runs takes it up.
   */
  runChanged(workflowId: string, runId: string, cancelled: boolean): void {
    if (this.ownership.owns(workflowId)) {
      if (cancelled) this.invocations.runs.cancelled(runId);
      else this.runWaker.scan(false);
    } else {
      this.bus.broadcast({ t: "run", id: workflowId, run: runId, cancelled });
    }
  }

  async close(): Promise<void> {
    this.runWaker.close();
    const sending = this.runSender.close();
    this.#node.stop();
    this.#announce.close();
    this.invocations.stop();
    this.pump.close();
    this.backlog.close();
    this.edgeFirst.close();
    this.timers.close();
    this.deliveries.close();
    await this.#commits.drain();
    // the tries under way record their outcome while this node still holds their partitions
    await sending;
    await this.ownership.close();
  }
}
