import { PARTITIONS, type CommitBatch } from "../../store/port.ts";

// Which emitters' durable work (inbox rows, timer ticks, deliveries) this node runs. On one node
// it runs all of them; with several (TRIBUTARY_BUS=redis) each holds some partitions through
// leases (lease-ownership.ts), so every emitter has one writer, as on one node.

/** Partitions gained and lost in one change of ownership. */
export type OwnershipChange = (gained: ReadonlySet<number>, lost: ReadonlySet<number>) => Promise<void>;

export interface Ownership {
  /** this node's id */
  readonly node: string;
  /** whether several nodes share the work (owners sweep the store for work others announced) */
  readonly shared: boolean;
  owns(id: string): boolean;
  /** whether this node holds the partition now */
  holds(partition: number): boolean;
  /** what a commit of the emitter's durable work must check (undefined: nothing to check) */
  fence(id: string): CommitBatch["fence"];
  /** where the node running the emitter can be reached (undefined: this node, or nobody now) */
  ownerAddress(id: string): Promise<string | undefined>;
  /** this node's own address, once it listens (published with its heartbeat) */
  setAddress(url: string): void;
  /** starts holding partitions; `onChange` is told of every change, one at a time */
  start(onChange: OwnershipChange): Promise<void>;
  close(): Promise<void>;
}

/** One node: everything is this node's. */
export class SoleOwnership implements Ownership {
  readonly node: string;
  readonly shared = false;

  constructor(node: string) {
    this.node = node;
  }

  owns(): boolean {
    return true;
  }

  holds(): boolean {
    return true;
  }

  fence(): undefined {
    return undefined;
  }

  async ownerAddress(): Promise<undefined> {
    return undefined;
  }

  setAddress(): void {}

  async start(onChange: OwnershipChange): Promise<void> {
    await onChange(new Set(Array.from({ length: PARTITIONS }, (_, i) => i)), new Set());
  }

  async close(): Promise<void> {}
}
