import type { Bus, ControlMessage } from "../../bus/port.ts";
import type { Store } from "../../store/port.ts";
import type { InboxPump } from "../flow/inbox-pump.ts";
import type { Deliveries } from "../flow/deliveries.ts";
import { timerOf, type Timers } from "../flow/timers.ts";
import type { Routes } from "../flow/routes.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { Targets } from "../runtime/targets.ts";
import type { Usage } from "../runtime/usage.ts";
import type { Ownership } from "./ownership.ts";
import type { RunWaker } from "../workflows/run-waker.ts";
import type { RunSender } from "../workflows/run-sender.ts";
import { partitionOf } from "./partition.ts";

// Which durable work this node runs, as its partitions come and go, and what it hears from the
// other nodes (one node: everything, from the start, and nobody to hear from). Partitions lost
// stop here at once (their commits would be fenced anyway); partitions gained start as the whole
// service does at start: accepted runs, timers, queued deliveries, all read from the store, since
// the node that had them may have written up to its last moment.

// Owners read the store for work announced by others this often, in case an announcement was
// lost (the bus is a hint; the inbox and delivery tables are the truth).
const SWEEP_MS = 5000;
const USAGE_SYNC_MS = 1000;
const TAKE_UP_RETRY_MS = 2000;

export interface NodeWorkDeps {
  store: Store;
  bus: Bus;
  ownership: Ownership;
  pump: InboxPump;
  deliveries: Deliveries;
  timers: Timers;
  invocations: Invocations;
  runWaker: RunWaker;
  /** sends steps queued ($.send.http / email) */
  runSender: RunSender;
  targets: Targets;
  routes: Routes;
  usage: Usage;
  /** forgets a deleted emitter here (without telling the other nodes: they were told) */
  forget: (emitterId: string, userId: string) => void;
  log: (err: unknown, what: string) => void;
}

export class NodeWork {
  readonly #d: NodeWorkDeps;
  /** told when another node changed something of a user (caches of the layers above) */
  readonly #userChanged: Array<(userId: string) => void> = [];
  #sweep: NodeJS.Timeout | undefined;
  #usageSync: NodeJS.Timeout | undefined;
  #stopped = false;
  /** the change of each emitter (or user) being applied now, which the next one waits for */
  readonly #applying = new Map<string, Promise<void>>();

  constructor(deps: NodeWorkDeps) {
    this.#d = deps;
  }

  async start(): Promise<void> {
    const d = this.#d;
    // Work that failed while the store could not write resumes as soon as it can again; so do
    // timers an edit or a delete stopped before its write failed (the source is still active).
    d.store.onRecovered(() => {
      this.#resumeOwned();
      // runs whose step could not commit are running with nobody driving them
      d.runWaker.scan(true);
      d.runSender.scan();
      void this.#armTimers((id) => d.ownership.owns(id), true).catch((e) => d.log(e, "re-arming timers failed"));
    });
    d.bus.onBroadcast((m) => this.#onBroadcast(m));
    d.bus.onReconnect(() => void this.#resync());
    // one node: takes everything now; several: what its leases bring, now and as they change
    await d.ownership.start((gained, lost) => this.#ownershipChanged(gained, lost));
    // waiting runs of what this node holds (and runs a stop cut short), then as they come due
    d.runWaker.start();
    d.runSender.start();
    if (d.ownership.shared) {
      this.#sweep = setInterval(() => this.#resumeOwned(), SWEEP_MS);
      this.#sweep.unref();
      this.#usageSync = setInterval(() => void this.#syncUsage(), USAGE_SYNC_MS);
      this.#usageSync.unref();
    }
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#sweep);
    clearInterval(this.#usageSync);
  }

  /**
   * Something of `userId` (the emitter `emitterId`, or their subscriptions, lists or keys)
   * changed on this node, which has already dropped what it cached: the other nodes do the same.
   */
  changed(userId: string, emitterId?: string): void {
    this.#d.bus.broadcast(emitterId ? { t: "changed", user: userId, emitter: emitterId } : { t: "changed", user: userId });
  }

  /** `listener` hears of changes made on other nodes (a cache to drop) */
  onUserChanged(listener: (userId: string) => void): void {
    this.#userChanged.push(listener);
  }

  // Quotas count every node's usage. Each node writes its own to the store about once a second,
  // and reads the totals back as often, so a quota used up through one node holds on the others
  // within about two seconds.
  async #syncUsage(): Promise<void> {
    try {
      for (const id of this.#d.usage.users().slice(0, 1000)) {
        const row = await this.#d.store.users.byId(id);
        if (row) this.#d.usage.merge(row);
      }
    } catch (e) {
      this.#d.log(e, "reading usage back from the store failed");
    }
  }

  #resumeOwned(): void {
    this.#d.pump.resume().catch((e) => this.#d.log(e, "resuming accepted runs failed"));
    this.#d.deliveries.resume().catch((e) => this.#d.log(e, "resuming deliveries failed"));
  }

  async #ownershipChanged(gained: ReadonlySet<number>, lost: ReadonlySet<number>): Promise<void> {
    const d = this.#d;
    if (lost.size > 0) {
      const inLost = (id: string) => lost.has(partitionOf(id));
      d.timers.cancelWhere(inLost);
      d.pump.dropWhere(inLost);
      d.deliveries.dropWhere(inLost);
      d.invocations.reloadWhere(inLost);
    }
    if (gained.size === 0) return;
    const inGained = (id: string) => gained.has(partitionOf(id));
    d.invocations.reloadWhere(inGained);
    d.targets.invalidateWhere(inGained);
    await this.#takeUp(gained);
  }

  // Starts the work of partitions just gained. The store may fail part way (a brief outage): the
  // inbox and deliveries are swept again anyway, but the timers would stay off, so the whole
  // take-up is retried until it succeeds (for the partitions still held).
  async #takeUp(gained: ReadonlySet<number>): Promise<void> {
    const d = this.#d;
    const held = new Set([...gained].filter((p) => d.ownership.holds(p)));
    if (held.size === 0 || this.#stopped) return;
    const inHeld = (id: string) => held.has(partitionOf(id));
    try {
      await d.pump.resume();
      await this.#armTimers(inHeld, false);
      await d.deliveries.resume();
      d.runWaker.scan(true);
      d.runSender.scan();
    } catch (e) {
      d.log(e, "starting the work of partitions this node took failed; trying again shortly");
      const retry = setTimeout(() => void this.#takeUp(held), TAKE_UP_RETRY_MS);
      retry.unref();
    }
  }

  /** Arms the timers of the active emitters `which` picks (`lost`: only those not armed here). */
  async #armTimers(which: (id: string) => boolean, lost: boolean): Promise<void> {
    const d = this.#d;
    const emitters = [...(await d.store.sources.listActive()), ...(await d.store.workflows.listActive())];
    for (const { id } of emitters) {
      if (!which(id) || (lost && d.timers.armed(id)) || this.#stopped) continue;
      const t = await d.targets.get(id);
      if (t && timerOf(t)) await d.timers.schedule(t);
    }
  }

  #onBroadcast(m: ControlMessage): void {
    if (m.t === "inbox") this.#d.pump.wake(m.id);
    else if (m.t === "deliveries") this.#d.deliveries.wake(m.id);
    else if (m.t === "run") {
      if (!this.#d.ownership.owns(m.id)) return;
      if (m.cancelled) this.#d.invocations.runs.cancelled(m.run);
      else this.#d.runWaker.scan(false);
    }
    else if (m.t === "resync") void this.#resync();
    else this.#applyInOrder(m.user, m.emitter);
  }

  /**
   * Messages may have been lost (Redis went away and came back): every change another node
   * made meanwhile is taken up as if its message had come. Each emitter cached or armed here is
   * read again from the store (a source disabled meanwhile stops answering and ticking), and
   * every user known here has their subscriptions, keys, lists and environment read again.
   */
  async #resync(): Promise<void> {
    const d = this.#d;
    try {
      const users = new Set(d.usage.users());
      for (const id of new Set([...d.targets.cachedIds(), ...d.timers.armedIds()])) {
        const t = await d.targets.get(id).catch(() => undefined);
        if (!t) continue;
        users.add(t.user.id);
        this.#applyInOrder(t.user.id, id);
      }
      for (const u of users) this.#applyInOrder(u, undefined);
    } catch (e) {
      d.log(e, "reading the caches again after Redis came back failed");
    }
  }

  // Changes of one emitter are applied one after another, in the order they came: each reads the
  // emitter back from the store, and applied at once a disable read before an enable could finish
  // after it (no timer for an active source), or an enable after a disable (a disabled one ticking).
  #applyInOrder(userId: string, emitterId: string | undefined): void {
    const key = emitterId ?? `user:${userId}`;
    const previous = this.#applying.get(key) ?? Promise.resolve();
    const next = previous
      .then(() => this.#changedElsewhere(userId, emitterId))
      .catch((e) => this.#d.log(e, "applying a change from another node failed"));
    this.#applying.set(key, next);
    void next.then(() => {
      if (this.#applying.get(key) === next) this.#applying.delete(key);
    });
  }

  // Another node changed an emitter of this user (or their subscriptions, keys, lists): drop
  // what is cached, and if this node runs the emitter, take the change up as that node would.
  async #changedElsewhere(userId: string, emitterId: string | undefined): Promise<void> {
    const d = this.#d;
    d.routes.invalidate(userId);
    for (const l of this.#userChanged) l(userId);
    if (!emitterId) return;
    d.targets.invalidate(emitterId);
    d.invocations.refresh(emitterId);
    const t = await d.targets.get(emitterId);
    if (!t) {
      // deleted: its rows are gone; its live streams here end
      d.forget(emitterId, userId);
      return;
    }
    d.timers.cancel(emitterId);
    if (!t.source.active || !d.ownership.owns(emitterId)) return;
    if (timerOf(t)) await d.timers.schedule(t);
    d.pump.wake(emitterId);
  }
}
