// The live Bus: fan-out of committed events to whoever watches right now (SSE streams), and
// wake-ups between parts. Only a latency hint: a listener that missed a message catches up
// from the store, so a message may be lost but never invented.

export interface BusMessage {
  /** the emitter's stream the event belongs to */
  eventName: string;
  /** the event id, `${ms}-${n}` */
  id: string;
  /** the event summary item as JSON, full (never truncated) */
  item: string;
}

export type BusListener = (message: BusMessage) => void;

/**
 * What one node tells the others (several nodes). Like every bus message, a hint: the store has
 * the truth, and owners sweep it every few seconds for work a lost message would have announced.
 */
export type ControlMessage =
  /** accepted runs of a source wait in the inbox: its owner should read them */
  | { t: "inbox"; id: string }
  /** deliveries to a listener wait: its owner should read them */
  | { t: "deliveries"; id: string }
  /** a run of workflow `id` was resumed or cancelled: the workflow's owner takes it up */
  | { t: "run"; id: string; run: string; cancelled: boolean }
  /** an emitter (or only the user's subscriptions, lists or keys) changed: drop what is cached */
  | { t: "changed"; user: string; emitter?: string }
  /** the sender's messages may have been lost (its Redis connection came back): read everything cached again */
  | { t: "resync" };

export type ControlListener = (message: ControlMessage) => void;

export interface Bus {
  publish(channel: string, message: BusMessage): void;
  /**
   * Whether anyone may be watching the channel. Publishers skip building messages nobody would
   * read (a rendered item is a second copy of every event); a bus that can't tell answers true.
   */
  watched(channel: string): boolean;
  /** returns the unsubscribe function */
  subscribe(channel: string, listener: BusListener, onEnd?: () => void): () => void;
  /** resolves once messages published anywhere on the channel reach this node's listeners */
  ready(channel: string): Promise<void>;
  /** ends every subscription of a channel (its emitter is gone); listeners get `onEnd` */
  end(channel: string): void;
  /** tells every other node (none on the embedded bus) */
  broadcast(message: ControlMessage): void;
  /** what the other nodes broadcast */
  onBroadcast(listener: ControlListener): void;
  /**
   * The bus came back after losing its connection: messages may have been lost meanwhile, so
   * what a node cached may be stale (every live stream of this node was ended when it came
   * back, for its client to reconnect with Last-Event-ID and catch up from the store). Never
   * called by a bus that can't lose messages (one node).
   */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

export const emitterChannel = (emitterId: string): string => `emitter:${emitterId}`;
