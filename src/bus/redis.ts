import { Redis } from "ioredis";
import type { Bus, BusListener, BusMessage, ControlListener, ControlMessage } from "./port.ts";
import { MemoryBus } from "./memory.ts";

// The scale-out Bus (TRIBUTARY_BUS=redis): Redis pub/sub between the nodes on one database.
// Local listeners are served in-process as on one node (no round trip through Redis for a stream
// on the emitter's own node); every event is also published to Redis for streams on other nodes,
// which each node subscribes to only while it has a listener. Nothing durable goes through here
// (docs/several-nodes.md, "What Redis carries"): a message lost while Redis is away is a stream that misses an event
// (it catches up from the store on reconnect) or a wake-up the owner's sweep makes up for.

const CONNECT_TIMEOUT_MS = 10_000;
// Frames of one channel published in one turn of the event loop go out as one Redis message,
// separated by this (JSON text never holds a raw control character, so it can't be in a frame).
const SEP = "\u001e";

export interface RedisBusOptions {
  url: string;
  /** this node's id: a node ignores its own broadcasts */
  node: string;
  /** channel names start with it: the nodes of one database share it, other deployments don't */
  prefix: string;
  log: (err: unknown, what: string) => void;
}

export class RedisBus implements Bus {
  readonly #local: MemoryBus;
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #o: RedisBusOptions;
  readonly #control: ControlListener[] = [];
  readonly #controlChannel: string;
  #lastError = 0;
  #closing = false;
  /** frames waiting for the end of this turn, by channel */
  readonly #outbox = new Map<string, string[]>();
  #flushing: NodeJS.Immediate | undefined;
  /** channels whose SUBSCRIBE Redis hasn't confirmed yet */
  readonly #subscribing = new Map<string, Promise<void>>();
  readonly #reconnected: Array<() => void> = [];
  /** the connections that lost Redis since they were last ready */
  readonly #lost = new Set<Redis>();

  private constructor(o: RedisBusOptions, pub: Redis, sub: Redis) {
    this.#o = o;
    this.#pub = pub;
    this.#sub = sub;
    this.#local = new MemoryBus((e) => o.log(e, "a live stream's listener failed"));
    this.#controlChannel = `${o.prefix}control`;
    sub.on("message", (channel: string, message: string) => this.#receive(channel, message));
  }

  /** Connects both connections (one publishes, one subscribes: a subscribed connection can't publish). */
  static async connect(o: RedisBusOptions): Promise<RedisBus> {
    const options = {
      // a publish while Redis is away fails at once instead of queueing without bound
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 1,
      connectTimeout: CONNECT_TIMEOUT_MS,
      lazyConnect: true,
    };
    const pub = new Redis(o.url, options);
    // the subscriber's SUBSCRIBE commands are queued while it reconnects, and re-sent after
    const sub = new Redis(o.url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
    const bus = new RedisBus(o, pub, sub);
    for (const c of [pub, sub]) {
      c.on("error", (e: unknown) => bus.#warn(e, "the Redis bus lost its connection; reconnecting"));
      c.on("close", () => bus.#lost.add(c));
      c.on("ready", () => {
        if (bus.#lost.delete(c)) bus.#back(c === sub);
      });
    }
    try {
      await Promise.all([pub.connect(), sub.connect()]);
      await sub.subscribe(bus.#controlChannel);
    } catch (e) {
      pub.disconnect();
      sub.disconnect();
      throw new Error(`REDIS_URL: can't reach Redis (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    return bus;
  }

  get subscribers(): number {
    return this.#local.subscribers;
  }

  publish(channel: string, message: BusMessage): void {
    this.#local.publish(channel, message);
    // one line of JSON for the header, then the item as it is (not escaped a second time)
    const frame = `${JSON.stringify([message.eventName, message.id])}\n${message.item}`;
    const frames = this.#outbox.get(channel);
    if (frames) frames.push(frame);
    else this.#outbox.set(channel, [frame]);
    this.#flushing ??= setImmediate(() => this.#flush());
  }

  // A commit publishes its rows in one go: they cross to the other nodes as one message per
  // emitter, prefixed with this node's id (a node skips its own).
  #flush(): void {
    this.#flushing = undefined;
    for (const [channel, frames] of this.#outbox) {
      this.#pub
        .publish(this.#o.prefix + channel, this.#o.node + SEP + frames.join(SEP))
        .catch((e: unknown) => this.#warn(e, "publishing an event to Redis failed"));
    }
    this.#outbox.clear();
  }

  // Another node may have a stream on any emitter, and finding out would cost a round trip per
  // event: every event is published (Redis drops a message nobody subscribed to at once).
  watched(): boolean {
    return true;
  }

  subscribe(channel: string, listener: BusListener, onEnd?: () => void): () => void {
    const first = !this.#local.watched(channel);
    const off = this.#local.subscribe(channel, listener, onEnd);
    if (first) {
      const subscribed = this.#sub.subscribe(this.#o.prefix + channel).then(
        () => undefined,
        (e: unknown) => this.#warn(e, "subscribing on Redis failed"),
      );
      this.#subscribing.set(channel, subscribed);
      void subscribed.finally(() => {
        if (this.#subscribing.get(channel) === subscribed) this.#subscribing.delete(channel);
      });
    }
    return () => {
      off();
      this.#release(channel);
    };
  }

  ready(channel: string): Promise<void> {
    return this.#subscribing.get(channel) ?? Promise.resolve();
  }

  end(channel: string): void {
    this.#local.end(channel);
    this.#release(channel);
  }

  broadcast(message: ControlMessage): void {
    const frame = JSON.stringify({ ...message, from: this.#o.node });
    this.#pub.publish(this.#controlChannel, frame).catch((e: unknown) => this.#warn(e, "broadcasting to the other nodes failed"));
  }

  onBroadcast(listener: ControlListener): void {
    this.#control.push(listener);
  }

  onReconnect(listener: () => void): void {
    this.#reconnected.push(listener);
  }

  // A connection came back: what crossed Redis meanwhile is lost. The subscriber missed the other
  // nodes' events and changes: this node's live streams end (their clients reconnect with
  // Last-Event-ID and catch up from the store) and its caches are read again. The publisher's
  // own messages may not have reached the others: they are asked to read theirs again.
  #back(subscriber: boolean): void {
    if (this.#closing) return;
    if (subscriber) {
      this.#local.endAll();
      for (const l of this.#reconnected) {
        try {
          l();
        } catch (e) {
          this.#o.log(e, "catching up after Redis came back failed");
        }
      }
    } else this.broadcast({ t: "resync" });
  }

  async close(): Promise<void> {
    this.#closing = true;
    if (this.#flushing) {
      clearImmediate(this.#flushing);
      this.#flush();
    }
    await this.#local.close();
    await Promise.allSettled([this.#pub.quit(), this.#sub.quit()]);
  }

  #release(channel: string): void {
    if (this.#local.watched(channel)) return;
    this.#sub.unsubscribe(this.#o.prefix + channel).catch(() => {});
  }

  #receive(channel: string, message: string): void {
    try {
      if (channel === this.#controlChannel) {
        const m = JSON.parse(message) as ControlMessage & { from?: string };
        if (m.from === this.#o.node) return;
        for (const l of this.#control) l(m);
        return;
      }
      const frames = message.split(SEP);
      if (frames[0] === this.#o.node) return;
      const local = channel.slice(this.#o.prefix.length);
      for (let i = 1; i < frames.length; i++) {
        const frame = frames[i];
        const nl = frame.indexOf("\n");
        const [eventName, id] = JSON.parse(frame.slice(0, nl)) as [string, string];
        this.#local.publish(local, { eventName, id, item: frame.slice(nl + 1) });
      }
    } catch (e) {
      this.#o.log(e, "a message from the Redis bus could not be read");
    }
  }

  // Redis being away is reported once every few seconds, not once per event.
  #warn(e: unknown, what: string): void {
    const now = Date.now();
    if (now - this.#lastError < 5000) return;
    this.#lastError = now;
    this.#o.log(e, what);
  }
}
