// What every delivery lane shares (deliveries.ts runs them): its state, the kinds of lane and the
// one function that says which kind a delivery target gets, and what a kind may ask of the
// Deliveries running it. The kinds themselves: listener-lanes.ts (sources and workflows) and
// webhook-lanes.ts.
import type { DeliveryRow, Store } from "../../store/port.ts";
import type { Capacity } from "./capacity.ts";
import type { CommitQueue } from "../runtime/commit-queue.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { Quotas } from "../runtime/quotas.ts";
import type { Targets } from "../runtime/targets.ts";
import type { WebhookSender } from "./webhook-sender.ts";

/** runs of one listener started and not yet committed */
export const MAX_IN_FLIGHT = 256;
/** rows a lane holds in memory; the rest wait in the delivery table */
export const LANE_MEMORY = 512;
export const RETRY_AFTER_FAILURE_MS = 2000;

export interface DeliveryDeps {
  store: Store;
  commits: CommitQueue;
  targets: Targets;
  invocations: Invocations;
  quotas: Quotas;
  webhooks: WebhookSender;
  capacity: Capacity;
  /** waits between webhook tries: WEBHOOK_TRIES - 1 of them */
  backoffMs: readonly number[];
  /** deliveries that may wait for one webhook whose receiver fails; past it the oldest go */
  maxPending: number;
  log: (err: unknown, what: string) => void;
  /** whether this node sends the listener's deliveries (several nodes: its partition's owner) */
  owns?: (listenerId: string) => boolean;
  /** tells the listener's owner, on another node, that deliveries wait for it */
  announce?: (listenerId: string) => void;
}

export type LaneKindName = "listener" | "webhook";

/**
 * The kind of lane that delivers to `listenerId`, decided here only: webhook ids start "wh_"
 * (core/webhooks.ts makes them); every other listener is a source or a workflow.
 */
export function laneKindOf(listenerId: string): LaneKindName {
  return listenerId.startsWith("wh_") ? "webhook" : "listener";
}

/** How one kind of lane delivers the rows its lane holds. */
export interface LaneKind {
  /** delivers what the lane holds, in order; "waits": it stopped for room in the shared capacity */
  drain(id: string, lane: Lane): Promise<"waits" | undefined>;
  /** its deliveries take room from the shared capacity (room it did not take goes to the next lane) */
  readonly usesCapacity: boolean;
}

/** What a lane kind may ask of the Deliveries running its lanes. */
export interface LaneHost {
  /** deliveries have stopped: nothing more starts */
  closed(): boolean;
  /** the lane is still the listener's, on a node that still owns it (a dropped lane stops) */
  current(id: string, lane: Lane): boolean;
  /** the listener is gone: forgets its lane */
  drop(id: string): void;
  /** goes round the lane again in `ms` */
  wakeIn(id: string, lane: Lane, ms: number): void;
  /** reads rows back from the store once the lane has run through what it holds */
  readBackIfDue(id: string, lane: Lane): Promise<void>;
  /** goes round the lane again now (a run ended) */
  pump(id: string): void;
}

export interface Lane {
  /** how its rows are delivered: picked once, when the lane is made */
  kind: LaneKind;
  queue: DeliveryRow[];
  /** ids of the deliveries running now (their rows are still in the store) */
  inFlight: Set<string>;
  busy: boolean;
  /** rows may wait in the store that the lane does not hold */
  overflow: boolean;
  /** rows arrived while the lane read back: read again before trusting "no overflow" */
  dirty: boolean;
  timer?: NodeJS.Timeout;
  /** room freed in the shared capacity: whether the lane goes for it */
  wake: () => boolean;
  /** commit failures per delivery that were not the store's fault (poison detection) */
  failures: Map<string, number>;
  /** a wake-up came while the lane was busy: go round again when it is done */
  again: boolean;
  /** a read-back is under way, and the deliveries that finished meanwhile (it may have seen them) */
  reading: boolean;
  doneWhileReading: Set<string>;
}

export function newLane(kind: LaneKind, wake: () => boolean): Lane {
  return {
    kind,
    queue: [],
    inFlight: new Set(),
    busy: false,
    again: false,
    overflow: false,
    dirty: false,
    wake,
    failures: new Map(),
    reading: false,
    doneWhileReading: new Set(),
  };
}

// Read back once the lane has run through what it holds and half its runs are done, so each
// read brings many new rows instead of re-reading the ones still running.
export function shouldReadBack(lane: Lane): boolean {
  return lane.queue.length === 0 && lane.overflow && lane.inFlight.size <= MAX_IN_FLIGHT / 2;
}
