/** Emitters are hashed into this many partitions (migration 010 made a lease row for each). */
export const PARTITIONS = 64;

/** A partition's lease as this node holds it. */
export interface HeldLease {
  partition: number;
  epoch: number;
}

/** Partition leases and node heartbeats (several nodes on one PostgreSQL). Times are the database's clock. */
export interface LeaseStore {
  /** records this node as alive until now + ttl; returns the ids of every live node */
  heartbeat(node: string, address: string | null, ttlMs: number): Promise<string[]>;
  /** extends the leases this node still holds among `partitions`; returns those (the rest were lost) */
  renew(node: string, partitions: number[], ttlMs: number): Promise<HeldLease[]>;
  /**
   * Takes up to `max` partitions nobody holds or whose lease expired, each with a new epoch; with
   * `ownToo`, also those still leased to this node id (a node restarted under a fixed
   * TRIBUTARY_NODE_ID takes its work back at once instead of waiting for its old leases to expire).
   */
  claim(node: string, max: number, ttlMs: number, ownToo?: boolean): Promise<HeldLease[]>;
  /**
   * Gives leases up at once (a node handing work over, or stopping): each only while it is still
   * held under that epoch (a restarted process under the same node id may have taken it again).
   */
  release(node: string, leases: HeldLease[]): Promise<void>;
  /** this node's heartbeat goes (it is stopping) */
  leave(node: string): Promise<void>;
  /** where the holder of a partition's live lease can be reached (undefined: nobody holds it now) */
  ownerAddress(partition: number): Promise<string | undefined>;
}
