import type { Bus, BusListener, BusMessage } from "./port.ts";

// The embedded Bus: one process, plain callbacks. A listener that throws is logged and kept
// out of everyone else's way (graphile-worker's safeEmit): publishing never fails.

interface Entry {
  listener: BusListener;
  onEnd?: () => void;
}

export class MemoryBus implements Bus {
  readonly #channels = new Map<string, Set<Entry>>();
  readonly #log: (err: unknown) => void;

  constructor(log: (err: unknown) => void = () => {}) {
    this.#log = log;
  }

  publish(channel: string, message: BusMessage): void {
    const entries = this.#channels.get(channel);
    if (!entries) return;
    for (const e of entries) {
      try {
        e.listener(message);
      } catch (err) {
        this.#log(err);
      }
    }
  }

  /** listeners subscribed now, across channels (each is a live SSE stream: the metrics' gauge) */
  get subscribers(): number {
    let n = 0;
    for (const entries of this.#channels.values()) n += entries.size;
    return n;
  }

  watched(channel: string): boolean {
    return this.#channels.has(channel);
  }

  subscribe(channel: string, listener: BusListener, onEnd?: () => void): () => void {
    let entries = this.#channels.get(channel);
    if (!entries) this.#channels.set(channel, (entries = new Set()));
    const entry: Entry = { listener, onEnd };
    entries.add(entry);
    return () => {
      entries.delete(entry);
      if (entries.size === 0 && this.#channels.get(channel) === entries) this.#channels.delete(channel);
    };
  }

  // in-process: a listener hears the very next publish
  ready(): Promise<void> {
    return Promise.resolve();
  }

  end(channel: string): void {
    const entries = this.#channels.get(channel);
    this.#channels.delete(channel);
    for (const e of entries ?? []) {
      try {
        e.onEnd?.();
      } catch (err) {
        this.#log(err);
      }
    }
  }

  // one process: there is nobody else to tell
  broadcast(): void {}

  onBroadcast(): void {}

  // in-process: nothing is ever lost
  onReconnect(): void {}

  /** ends every channel's subscriptions (their listeners get `onEnd`), the bus staying open */
  endAll(): void {
    for (const channel of [...this.#channels.keys()]) this.end(channel);
  }

  async close(): Promise<void> {
    this.endAll();
  }
}
