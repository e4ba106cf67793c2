import type { Bus } from "../../bus/port.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { emitterChannel } from "../../bus/port.ts";
import type { SourceRow, UserRow } from "../../store/port.ts";
import type { CoreDeps } from "../deps.ts";
import { CommitQueue } from "./commit-queue.ts";
import { InboxQueue } from "../flow/inbox-queue.ts";
import { InboxPump } from "../flow/inbox-pump.ts";
import { Capacity } from "../flow/capacity.ts";
import { Ingress } from "../flow/ingress.ts";
import { Invocations } from "./invocations.ts";
import type { Target } from "./target.ts";
import { Lifecycle } from "./lifecycle.ts";
import { Quotas } from "./quotas.ts";
import { Targets } from "./targets.ts";
import { AccountAuth } from "../accounts/account-auth.ts";
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
import { partitionOf } from "../cluster/partition.ts";
import type { ControlMessage } from "../../bus/port.ts";

// Several nodes: owners read the store for work announced by others this often, in case an
// announcement was lost (the bus is a hint; the inbox and delivery tables are the truth).
const SWEEP_MS = 5000;
const USAGE_SYNC_MS = 1000;
const TAKE_UP_RETRY_MS = 2000;

// Everything that makes sources and workflows run, wired once: invocations and their commits,
// hooks, timers, the HTTP ingress, quotas, and the deliveries of events to listeners. Sources
// and Workflows call in here on every change of theirs.

export class SourceRuntime {
  readonly usage = new Usage();
  readonly targets: Targets;
  /** connected accounts' auth, as runs read it */
  readonly accountAuth: AccountAuth;
  readonly invocations: Invocations;
  readonly lifecycle: Lifecycle;
  readonly timers: Timers;
  readonly quotas: Quotas;
  readonly ingress: Ingress;
  readonly bus: Bus;
  readonly routes: Routes;
  readonly deliveries: Deliveries;
  readonly capacity: Capacity;
  readonly pump: InboxPump;
  readonly ownership: Ownership;
  readonly #deps: CoreDeps;
  readonly #announce: Announcements;
  /** told when another node changed something of a user (caches of the layers above) */
  readonly #userChanged: Array<(userId: string) => void> = [];
  #sweep: NodeJS.Timeout | undefined;
  #usageSync: NodeJS.Timeout | undefined;
  #stopped = false;
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
    this.accountAuth = new AccountAuth(deps.store.accounts, deps.secrets, deps.store.kind === "sqlite" ? Infinity : 1000);
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
      limits: deps.limits,
      fetchAllow: [...deps.fetchAllow],
      retention: deps.retention,
      metrics,
      fence: (id) => this.ownership.fence(id),
    });
    this.lifecycle = new Lifecycle(this.invocations);
    this.quotas = new Quotas(this.usage, this.invocations);
    const log = (err: unknown, what: string) => this.log(err, what);
    this.timers = new Timers(deps.store, this.invocations, this.quotas, log, owns);
    this.capacity = new Capacity(deps.backlog.maxInFlight, deps.backlog.maxInFlightBytes);
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
      backlog: new Backlog(deps.store, deps.backlog.maxWaiting ?? 0),
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
      log,
      owns,
      announce: (id) => this.#announce.add("deliveries", id),
    });
    this.invocations.onDeliveries = (rows) => this.deliveries.add(rows);
  }

  target(source: SourceRow, user: UserRow, component: ComponentRow): Target {
    return { source, user, component, endpointUrl: endpointUrl(this.#deps.publicUrl, source.endpoint_key) };
  }

  /**
   * At start: runs what was accepted but not finished before the last stop, arms timers, and
   * sends the deliveries still queued.
   */
  async start(): Promise<void> {
    const store = this.#deps.store;
    // Work that failed while the store could not write resumes as soon as it can again.
    store.onRecovered(() => this.#resumeOwned());
    this.bus.onBroadcast((m) => this.#onBroadcast(m));
    // one node: takes everything now; several: what its leases bring, now and as they change
    await this.ownership.start((gained, lost) => this.#ownershipChanged(gained, lost));
    if (this.ownership.shared) {
      this.#sweep = setInterval(() => this.#resumeOwned(), SWEEP_MS);
      this.#sweep.unref();
      this.#usageSync = setInterval(() => void this.#syncUsage(), USAGE_SYNC_MS);
      this.#usageSync.unref();
    }
  }

  /**
   * Something of `userId` (the emitter `emitterId`, or their subscriptions, lists or keys)
   * changed on this node, which has already dropped what it cached: the other nodes do the same.
   */
  changed(userId: string, emitterId?: string): void {
    this.bus.broadcast(emitterId ? { t: "changed", user: userId, emitter: emitterId } : { t: "changed", user: userId });
  }

  /** `listener` hears of changes made on other nodes (a cache to drop) */
  onUserChanged(listener: (userId: string) => void): void {
    this.#userChanged.push(listener);
  }

  // Several nodes: quotas count every node's usage. Each node writes its own to the store about
  // once a second, and reads the totals back as often, so a quota used up through one node holds
  // on the others within about two seconds.
  async #syncUsage(): Promise<void> {
    try {
      for (const id of this.usage.users().slice(0, 1000)) {
        const row = await this.#deps.store.users.byId(id);
        if (row) this.usage.merge(row);
      }
    } catch (e) {
      this.log(e, "reading usage back from the store failed");
    }
  }

  #resumeOwned(): void {
    this.pump.resume().catch((e) => this.log(e, "resuming accepted runs failed"));
    this.deliveries.resume().catch((e) => this.log(e, "resuming deliveries failed"));
  }

  // Partitions lost stop here at once (their commits would be fenced anyway); partitions gained
  // start as the whole service does at start: accepted runs, timers, queued deliveries, all read
  // from the store, since the node that had them may have written up to its last moment.
  async #ownershipChanged(gained: ReadonlySet<number>, lost: ReadonlySet<number>): Promise<void> {
    if (lost.size > 0) {
      const inLost = (id: string) => lost.has(partitionOf(id));
      this.timers.cancelWhere(inLost);
      this.pump.dropWhere(inLost);
      this.deliveries.dropWhere(inLost);
      this.invocations.reloadWhere(inLost);
    }
    if (gained.size === 0) return;
    const inGained = (id: string) => gained.has(partitionOf(id));
    this.invocations.reloadWhere(inGained);
    this.targets.invalidateWhere(inGained);
    await this.#takeUp(gained);
  }

  // Starts the work of partitions just gained. The store may fail part way (a brief outage): the
  // inbox and deliveries are swept again anyway, but the timers would stay off, so the whole
  // take-up is retried until it succeeds (for the partitions still held).
  async #takeUp(gained: ReadonlySet<number>): Promise<void> {
    const held = new Set([...gained].filter((p) => this.ownership.holds(p)));
    if (held.size === 0 || this.#stopped) return;
    const inHeld = (id: string) => held.has(partitionOf(id));
    try {
      await this.pump.resume();
      const store = this.#deps.store;
      const emitters = [...(await store.sources.listActive()), ...(await store.workflows.listActive())];
      for (const { id } of emitters) {
        if (!inHeld(id)) continue;
        const t = await this.targets.get(id);
        if (t && timerOf(t)) await this.timers.schedule(t);
      }
      await this.deliveries.resume();
    } catch (e) {
      this.log(e, "starting the work of partitions this node took failed; trying again shortly");
      const retry = setTimeout(() => void this.#takeUp(held), TAKE_UP_RETRY_MS);
      retry.unref();
    }
  }

  #onBroadcast(m: ControlMessage): void {
    if (m.t === "inbox") this.pump.wake(m.id);
    else if (m.t === "deliveries") this.deliveries.wake(m.id);
    else void this.#changedElsewhere(m.user, m.emitter).catch((e) => this.log(e, "applying a change from another node failed"));
  }

  // Another node changed an emitter of this user (or their subscriptions, keys, lists): drop
  // what is cached, and if this node runs the emitter, take the change up as that node would.
  async #changedElsewhere(userId: string, emitterId: string | undefined): Promise<void> {
    this.routes.invalidate(userId);
    for (const l of this.#userChanged) l(userId);
    if (!emitterId) return;
    this.targets.invalidate(emitterId);
    this.invocations.refresh(emitterId);
    const t = await this.targets.get(emitterId);
    if (!t) {
      // deleted: its rows are gone; its live streams here end
      this.gone(emitterId, userId, false);
      return;
    }
    this.timers.cancel(emitterId);
    if (!t.source.active || !this.ownership.owns(emitterId)) return;
    if (timerOf(t)) await this.timers.schedule(t);
    this.pump.wake(emitterId);
  }

  /**
   * POST /sources/{id}/run and /workflows/{id}/run (the caller has checked ownership): durably
   * accepts a run with `event`, or a timer event for a timer emitter given none.
   */
  async runNow(id: string, event: unknown, what: "source" | "workflow"): Promise<void> {
    const t = await this.targets.get(id);
    if (!t) throw notFound(what);
    if (!(await this.quotas.admit(t, "run"))) throw new AppError("quota_exceeded", "this account has used up its daily quota");
    const timer = timerOf(t);
    await this.ingress.enqueue(t, event === undefined && timer ? timerEvent(timer, Date.now()) : event);
  }

  /** A source or workflow was deleted: stop everything of it and end its live streams. */
  gone(sourceId: string, userId: string, here = true): void {
    if (here) this.changed(userId, sourceId);
    this.routes.invalidate(userId);
    this.deliveries.drop(sourceId);
    this.pump.drop(sourceId);
    this.timers.cancel(sourceId);
    this.targets.invalidate(sourceId);
    this.invocations.forget(sourceId);
    this.bus.end(emitterChannel(sourceId));
  }

  async close(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweep);
    clearInterval(this.#usageSync);
    this.#announce.close();
    this.invocations.stop();
    this.pump.close();
    this.timers.close();
    this.deliveries.close();
    await this.#commits.drain();
    await this.ownership.close();
  }
}
