import { PARTITIONS, type CommitBatch, type LeaseStore } from "../../store/port.ts";
import type { Ownership, OwnershipChange } from "./ownership.ts";
import { partitionOf } from "./partition.ts";

// Partition leases in the store (several nodes). Every `ttl / 4` a node renews its heartbeat and
// its leases, then evens out: it takes expired or free partitions up to its fair share
// (PARTITIONS / live nodes, rounded up) and gives back what it holds past that share, so a node
// that joins gets work within a few rounds and one that dies is replaced once its leases expire
// (ttl + one round). A lease lost (taken over, or not renewed in time because the store was away)
// stops that partition's work here at once; commits already under way are fenced by the store.

export interface LeaseOwnershipOptions {
  leases: LeaseStore;
  node: string;
  /** where other nodes reach this one (its own listen address) */
  address: string | null;
  ttlMs: number;
  log: (err: unknown, what: string) => void;
}

export class LeaseOwnership implements Ownership {
  readonly node: string;
  readonly shared = true;
  readonly #o: LeaseOwnershipOptions;
  /** partition → epoch, for the partitions this node holds */
  readonly #held = new Map<number, number>();
  #renewedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> = Promise.resolve();
  #onChange: OwnershipChange = async () => {};
  #closed = false;
  #firstRound = true;
  #changing = false;
  #watchdog: NodeJS.Timeout | undefined;
  #address: string | null;

  constructor(o: LeaseOwnershipOptions) {
    this.#o = o;
    this.node = o.node;
    this.#address = o.address;
  }

  owns(id: string): boolean {
    return this.#held.has(partitionOf(id));
  }

  holds(partition: number): boolean {
    return this.#held.has(partition);
  }

  fence(id: string): CommitBatch["fence"] {
    const p = partitionOf(id);
    // a partition not held (any more) gets an epoch no lease has: the commit is refused
    return { node: this.node, leases: [[p, this.#held.get(p) ?? -1]] };
  }

  async ownerAddress(id: string): Promise<string | undefined> {
    return this.#o.leases.ownerAddress(partitionOf(id));
  }

  setAddress(url: string): void {
    this.#address = url;
  }

  /** the partitions held now (tests, metrics) */
  get held(): number[] {
    return [...this.#held.keys()].sort((a, b) => a - b);
  }

  async start(onChange: OwnershipChange): Promise<void> {
    this.#onChange = onChange;
    // the first round runs before start() returns, so a lone node takes its partitions at once
    await this.#runRound();
    this.#schedule();
    // A round that hangs (a stuck connection) never gets to notice the leases running out: past
    // three quarters of their life without a renewal, this node stops their work on its own, well
    // before another node may take them.
    this.#watchdog = setInterval(() => {
      if (this.#held.size > 0 && !this.#changing && Date.now() - this.#renewedAt >= (this.#o.ttlMs * 3) / 4) {
        this.#o.log(new Error("partition leases not renewed in time"), "stopping the work of this node's partitions until they are renewed");
        void this.#lose(new Set(this.#held.keys())).catch((e: unknown) => this.#o.log(e, "stopping lost partitions failed"));
      }
    }, Math.max(50, Math.floor(this.#o.ttlMs / 8)));
    this.#watchdog.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#round.catch(() => {});
    clearInterval(this.#watchdog);
    const held = [...this.#held].map(([partition, epoch]) => ({ partition, epoch }));
    this.#held.clear();
    // handed back at once: the other nodes needn't wait for the leases to expire
    await this.#o.leases.release(this.node, held).catch((e: unknown) => this.#o.log(e, "releasing partition leases failed"));
    await this.#o.leases.leave(this.node).catch(() => {});
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#runRound().finally(() => this.#schedule());
    }, Math.max(50, Math.floor(this.#o.ttlMs / 4)));
  }

  #runRound(): Promise<void> {
    this.#round = this.#balance().catch((e: unknown) => this.#onStoreAway(e));
    return this.#round;
  }

  async #balance(): Promise<void> {
    const { leases, node, ttlMs } = this.#o;
    const startedAt = Date.now();
    const live = await leases.heartbeat(node, this.#address, ttlMs);
    const renewed = new Map((await leases.renew(node, this.held, ttlMs)).map((l) => [l.partition, l.epoch]));
    this.#renewedAt = startedAt;
    const lost = new Set<number>();
    for (const [p, epoch] of this.#held) if (renewed.get(p) !== epoch) lost.add(p);
    const share = Math.ceil(PARTITIONS / Math.max(1, live.length));
    const keep = [...renewed.keys()].filter((p) => !lost.has(p)).sort((a, b) => a - b);
    // past its share, a node gives back its highest partitions (others take them next round)
    const shed = keep.slice(share);
    for (const p of shed) lost.add(p);
    if (lost.size > 0) await this.#lose(lost);
    if (shed.length > 0) await leases.release(node, shed.map((p) => ({ partition: p, epoch: renewed.get(p)! })));
    const room = share - (keep.length - shed.length);
    // the first round also takes back what this node id still holds from before a restart
    const claimed = this.#closed ? [] : await leases.claim(node, room, ttlMs, this.#firstRound);
    this.#firstRound = false;
    if (claimed.length > 0) {
      for (const l of claimed) this.#held.set(l.partition, l.epoch);
      await this.#change(new Set(claimed.map((l) => l.partition)), new Set());
    }
  }

  async #lose(lost: Set<number>): Promise<void> {
    for (const p of lost) this.#held.delete(p);
    await this.#change(new Set(), lost);
  }

  async #change(gained: Set<number>, lost: Set<number>): Promise<void> {
    this.#changing = true;
    try {
      await this.#onChange(gained, lost);
    } finally {
      this.#changing = false;
    }
  }

  // The store can't be reached: the leases can't be renewed. Past their expiry another node may
  // have them, so this node stops their work (its commits would be refused anyway).
  async #onStoreAway(e: unknown): Promise<void> {
    this.#o.log(e, "renewing partition leases failed");
    if (this.#held.size > 0 && Date.now() - this.#renewedAt >= this.#o.ttlMs) {
      await this.#lose(new Set(this.#held.keys())).catch((err: unknown) => this.#o.log(err, "stopping lost partitions failed"));
    }
  }
}
