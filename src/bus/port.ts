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

export interface Bus {
  publish(channel: string, message: BusMessage): void;
  /**
   * Whether anyone may be watching the channel. Publishers skip building messages nobody would
   * read (a rendered item is a second copy of every event); a bus that can't tell answers true.
   */
  watched(channel: string): boolean;
  /** returns the unsubscribe function */
  subscribe(channel: string, listener: BusListener, onEnd?: () => void): () => void;
  /** ends every subscription of a channel (its emitter is gone); listeners get `onEnd` */
  end(channel: string): void;
  close(): Promise<void>;
}

export const emitterChannel = (emitterId: string): string => `emitter:${emitterId}`;
