// One real socket of an invocation, as sockets.ts holds it: what arrived for the isolate and has
// not been read yet, and the one read waiting for it. Reads are pulled: an answer carries
// everything that arrived meanwhile, so a burst of packets crosses into the isolate as one entry.
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";

/** the most one answer to a read carries */
const MAX_READ_BYTES = 1024 * 1024;
/** bytes waiting for the isolate past which the real socket stops reading (TCP pushes back) */
const HIGH_WATER = 1024 * 1024;

export type Failure = { error: { message: string; code?: string } };
export type ReadAnswer = { data: Uint8Array } | { end: true } | Failure;

export function failure(e: unknown): Failure {
  const err = e as NodeJS.ErrnoException;
  return { error: { message: String(err?.message ?? e), ...(typeof err?.code === "string" ? { code: err.code } : {}) } };
}

export class SocketEntry {
  readonly socket: Socket | TLSSocket;
  /** the plain socket a TLS one was made over (STARTTLS): it goes with it */
  readonly parent: Socket | undefined;
  failure: Failure | undefined;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #ended = false;
  #waiter: ((answer: ReadAnswer) => void) | undefined;

  constructor(socket: Socket | TLSSocket, parent?: Socket) {
    this.socket = socket;
    this.parent = parent;
    // From the start and for good: an 'error' with no listener would take the runner down.
    socket.on("error", (e) => this.fail(e));
  }

  fail(e: unknown): void {
    this.failure ??= failure(e);
    this.#answer();
  }

  destroy(): void {
    this.socket.destroy();
    this.parent?.destroy();
  }

  /** the listeners listen() added, for detach() */
  #listeners: [event: string, fn: (...args: any[]) => void][] = [];

  /**
   * Stops handing what arrives to reads (a plain socket whose bytes are TLS's now). Only our own
   * listeners go: the TLS socket made over it listens to it too, and must go on hearing its end.
   */
  detach(): void {
    for (const [event, fn] of this.#listeners) this.socket.off(event, fn);
    this.#listeners = [];
  }

  /** Starts handing what arrives to reads; `count` refuses bytes past the invocation's cap (throws). */
  listen(count: (bytes: number) => void): void {
    const s = this.socket;
    const on = (event: string, fn: (...args: any[]) => void) => {
      s.on(event, fn);
      this.#listeners.push([event, fn]);
    };
    on("data", (chunk: Buffer) => {
      try {
        count(chunk.byteLength);
      } catch (e) {
        this.fail(e);
        this.destroy();
        return;
      }
      this.#chunks.push(chunk);
      this.#buffered += chunk.byteLength;
      if (this.#buffered > HIGH_WATER) s.pause();
      this.#answer();
    });
    const ended = () => {
      this.#ended = true;
      this.#answer();
    };
    on("end", ended);
    on("close", ended);
  }

  read(): Promise<ReadAnswer> {
    if (this.#waiter) throw new Error("a read is already waiting on this socket");
    return new Promise((resolve) => {
      this.#waiter = resolve;
      this.#answer();
    });
  }

  /** resolves once the socket takes writes again (or closed) */
  drain(): Promise<object> {
    const s = this.socket;
    if (!s.writableNeedDrain) return Promise.resolve({});
    return new Promise((resolve) => {
      const done = () => {
        s.off("drain", done);
        s.off("close", done);
        resolve({});
      };
      s.on("drain", done);
      s.on("close", done);
    });
  }

  /** Hands what has arrived to a waiting read, if there is one. */
  #answer(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    let answer: ReadAnswer | undefined;
    if (this.#buffered > 0) answer = { data: this.#take() };
    else if (this.failure) answer = this.failure;
    else if (this.#ended) answer = { end: true };
    if (!answer) return;
    this.#waiter = undefined;
    waiter(answer);
  }

  #take(): Uint8Array {
    const data = new Uint8Array(Math.min(this.#buffered, MAX_READ_BYTES));
    let at = 0;
    while (at < data.length) {
      const c = this.#chunks[0];
      const take = Math.min(c.byteLength, data.length - at);
      data.set(c.subarray(0, take), at);
      at += take;
      if (take === c.byteLength) this.#chunks.shift();
      else this.#chunks[0] = c.subarray(take);
    }
    this.#buffered -= data.length;
    if (this.#buffered <= HIGH_WATER && this.socket.isPaused()) this.socket.resume();
    return data;
  }
}
