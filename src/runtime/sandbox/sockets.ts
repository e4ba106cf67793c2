// The sockets of one invocation (net, tls and dns inside the sandbox: isolate/../node/net.js),
// held by the runner: the real socket lives here, the isolate gets bytes. Reads are pulled: the
// isolate asks for the next bytes and gets everything that arrived meanwhile in one answer, so a
// burst of packets crosses into the isolate as one entry; writes are plain calls. Every socket
// goes when its invocation ends (Invocation.end), whatever the component left open.
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { socketTarget } from "./socket-target.ts";
import { tlsInfo, tlsOptions } from "./socket-tls.ts";
import { sandboxDns } from "./sandbox-dns.ts";

export const MAX_SOCKETS = 16;
export const MAX_SOCKET_BYTES = 64 * 1024 * 1024;
/** the most one answer to a read carries */
const MAX_READ_BYTES = 1024 * 1024;
/** bytes waiting for the isolate past which the real socket stops reading (TCP pushes back) */
const HIGH_WATER = 1024 * 1024;
const MAX_DNS_AT_ONCE = 8;

type Failure = { error: { message: string; code?: string } };
type ReadAnswer = { data: Uint8Array } | { end: true } | Failure;

interface Entry {
  socket: Socket | TLSSocket;
  chunks: Buffer[];
  buffered: number;
  ended: boolean;
  failure?: Failure;
  waiter?: (answer: ReadAnswer) => void;
}

// Ids count across invocations, so one an earlier invocation handed out never names a new socket.
let nextId = 1;

function failure(e: unknown): Failure {
  const err = e as NodeJS.ErrnoException;
  return { error: { message: String(err?.message ?? e), ...(typeof err?.code === "string" ? { code: err.code } : {}) } };
}

const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);

export class InvocationSockets {
  readonly #allow: readonly string[];
  readonly #entries = new Map<number, Entry>();
  #opened = 0;
  #traffic = 0;
  #dns = 0;
  #closed = false;

  constructor(allow: readonly string[]) {
    this.#allow = allow;
  }

  /** A call the isolate waits for: [what, ...args]. Resolves with the answer; never rejects. */
  async ask(args: unknown[]): Promise<unknown> {
    try {
      switch (args[0]) {
        case "connect":
          return await this.#connect(args[1]);
        case "upgrade":
          return await this.#upgrade(this.#entry(args[1]), args[2]);
        case "read":
          return await this.#read(this.#entry(args[1]));
        case "drain":
          return await this.#drain(this.#entry(args[1]));
        case "dns":
          return await this.#lookup(args.slice(1));
        default:
          throw new TypeError(`unknown socket call "${String(args[0])}"`);
      }
    } catch (e) {
      return failure(e);
    }
  }

  /** A call answered at once: [what, id, ...args]. write answers whether more may be written now. */
  now(args: unknown[]): unknown {
    const entry = this.#entry(args[1]);
    const s = entry.socket;
    switch (args[0]) {
      case "write": {
        if (!(args[2] instanceof Uint8Array)) throw new TypeError("a socket writes bytes");
        if (entry.failure) throw new Error(entry.failure.error.message);
        this.#count(entry, args[2].byteLength);
        return s.write(args[2]);
      }
      case "end":
        s.end();
        return;
      case "destroy":
        this.#forget(num(args[1]) ?? 0);
        return;
      case "noDelay":
        s.setNoDelay(args[2] !== false);
        return;
      case "keepAlive":
        s.setKeepAlive(args[2] === true, Math.max(0, num(args[3]) ?? 0));
        return;
      default:
        throw new TypeError(`unknown socket call "${String(args[0])}"`);
    }
  }

  /** Destroys every socket still open; the invocation is over. */
  closeAll(): void {
    this.#closed = true;
    for (const id of [...this.#entries.keys()]) this.#forget(id);
  }

  #entry(id: unknown): Entry {
    const entry = typeof id === "number" ? this.#entries.get(id) : undefined;
    if (!entry) throw Object.assign(new Error("this socket is closed (sockets close when their invocation ends)"), { code: "ERR_SOCKET_CLOSED" });
    return entry;
  }

  #forget(id: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    entry.socket.destroy();
  }

  #count(entry: Entry, bytes: number): void {
    this.#traffic += bytes;
    if (this.#traffic > MAX_SOCKET_BYTES) {
      const e = new RangeError(`sockets carried more than ${MAX_SOCKET_BYTES / 1048576} MiB in this invocation`);
      entry.failure = failure(e);
      entry.socket.destroy();
      this.#answer(entry);
      throw e;
    }
  }

  async #connect(raw: unknown): Promise<unknown> {
    const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const port = num(o.port);
    if (port === undefined || !Number.isInteger(port) || port <= 0 || port > 65535) throw new RangeError(`"port" must be an integer from 1 to 65535, got ${String(o.port)}`);
    if (this.#opened >= MAX_SOCKETS) throw new RangeError(`more than ${MAX_SOCKETS} sockets in one invocation`);
    // reserved before the lookup (connects made at once count too), given back when refused
    this.#opened++;
    let target;
    try {
      target = await socketTarget(typeof o.host === "string" ? o.host : "localhost", port, this.#allow);
    } catch (e) {
      this.#opened--;
      throw e;
    }
    const at = { host: target.address, port, family: target.family };
    const socket = o.tls ? tlsConnect({ ...tlsOptions(o.tls, target.host), ...at }) : netConnect(at);
    return this.#opening(socket, o.tls ? "secureConnect" : "connect");
  }

  /** tls.connect({socket}): the plain socket's bytes go through TLS from now on, under a new id. */
  async #upgrade(plain: Entry, raw: unknown): Promise<unknown> {
    const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    for (const [id, e] of this.#entries) if (e === plain) this.#entries.delete(id);
    const socket = plain.socket;
    for (const event of ["data", "end", "error", "close"]) socket.removeAllListeners(event);
    const host = typeof o.host === "string" ? o.host : (socket.remoteAddress ?? "localhost");
    return this.#opening(tlsConnect({ ...tlsOptions(o, host), socket }), "secureConnect");
  }

  #opening(socket: Socket | TLSSocket, ready: string): Promise<unknown> {
    if (this.#closed) socket.destroy();
    const id = nextId++;
    const entry: Entry = { socket, chunks: [], buffered: 0, ended: false };
    this.#entries.set(id, entry);
    return new Promise((resolve) => {
      const failed = (e: Error) => {
        this.#forget(id);
        resolve(failure(e));
      };
      socket.once("error", failed);
      socket.once(ready, () => {
        socket.off("error", failed);
        this.#listen(entry);
        const info = { id, localAddress: socket.localAddress, localPort: socket.localPort, remoteAddress: socket.remoteAddress, remotePort: socket.remotePort, remoteFamily: socket.remoteFamily };
        resolve(ready === "secureConnect" ? { ...info, ...tlsInfo(socket as TLSSocket) } : info);
      });
    });
  }

  #listen(entry: Entry): void {
    const s = entry.socket;
    s.on("data", (chunk: Buffer) => {
      try {
        this.#count(entry, chunk.byteLength);
      } catch {
        return;
      }
      entry.chunks.push(chunk);
      entry.buffered += chunk.byteLength;
      if (entry.buffered > HIGH_WATER) s.pause();
      this.#answer(entry);
    });
    s.on("end", () => {
      entry.ended = true;
      this.#answer(entry);
    });
    s.on("error", (e) => {
      entry.failure ??= failure(e);
      this.#answer(entry);
    });
    s.on("close", () => {
      entry.ended = true;
      this.#answer(entry);
    });
  }

  /** Hands what has arrived to a waiting read, if there is one. */
  #answer(entry: Entry): void {
    const waiter = entry.waiter;
    if (!waiter) return;
    let answer: ReadAnswer | undefined;
    if (entry.buffered > 0) {
      const data = new Uint8Array(Math.min(entry.buffered, MAX_READ_BYTES));
      let at = 0;
      while (at < data.length) {
        const c = entry.chunks[0];
        const take = Math.min(c.byteLength, data.length - at);
        data.set(c.subarray(0, take), at);
        at += take;
        if (take === c.byteLength) entry.chunks.shift();
        else entry.chunks[0] = c.subarray(take);
      }
      entry.buffered -= data.length;
      if (entry.buffered <= HIGH_WATER && entry.socket.isPaused()) entry.socket.resume();
      answer = { data };
    } else if (entry.failure) answer = entry.failure;
    else if (entry.ended) answer = { end: true };
    if (!answer) return;
    entry.waiter = undefined;
    waiter(answer);
  }

  #read(entry: Entry): Promise<ReadAnswer> {
    if (entry.waiter) throw new Error("a read is already waiting on this socket");
    return new Promise((resolve) => {
      entry.waiter = resolve;
      this.#answer(entry);
    });
  }

  #drain(entry: Entry): Promise<unknown> {
    const s = entry.socket;
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

  async #lookup(args: unknown[]): Promise<unknown> {
    if (this.#dns >= MAX_DNS_AT_ONCE) throw new RangeError(`more than ${MAX_DNS_AT_ONCE} DNS queries at once`);
    this.#dns++;
    try {
      return { value: await sandboxDns(args, this.#allow) };
    } finally {
      this.#dns--;
    }
  }
}
