// The sockets of one invocation (net, tls and dns inside the sandbox: isolate/../node/net.js),
// held by the runner: the real socket lives here, the isolate gets bytes (socket-entry.ts). Writes
// are plain calls. Every socket goes when its invocation ends (Invocation.end), whatever the
// component left open, and none is ever without an 'error' listener: one would end the runner.
import type { Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { openSocket, socketTarget } from "./socket-target.ts";
import { tlsInfo, tlsOptions } from "./socket-tls.ts";
import { sandboxDns } from "./dns.ts";
import { failure, SocketEntry } from "./socket-entry.ts";
import { InvocationCiphers } from "../crypto/ciphers.ts";

export const MAX_SOCKETS = 16;
export const MAX_SOCKET_BYTES = 64 * 1024 * 1024;
const MAX_DNS_AT_ONCE = 8;

// Ids count across invocations, so one an earlier invocation handed out never names a new socket.
let nextId = 1;

const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
const record = (x: unknown) => (typeof x === "object" && x !== null ? x : {}) as Record<string, unknown>;

export class InvocationSockets {
  readonly #allow: readonly string[];
  readonly #entries = new Map<number, SocketEntry>();
  #opened = 0;
  #traffic = 0;
  #dns = 0;
  #closed = false;
  /** node:crypto's ciphers (crypto/ciphers.ts): runner state of the invocation's, gone with it too */
  readonly #ciphers = new InvocationCiphers();

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
          return await this.#upgrade(args[1], args[2]);
        case "read":
          return await this.#entry(args[1]).read();
        case "drain":
          return await this.#entry(args[1]).drain();
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
    if (args[0] === "cipher") return this.#ciphers.call(args.slice(1));
    const entry = this.#entry(args[1]);
    const s = entry.socket;
    switch (args[0]) {
      case "write": {
        if (!(args[2] instanceof Uint8Array)) throw new TypeError("a socket writes bytes");
        if (entry.failure) throw new Error(entry.failure.error.message);
        try {
          this.#count(args[2].byteLength);
        } catch (e) {
          entry.fail(e);
          entry.destroy();
          throw e;
        }
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
    this.#ciphers.closeAll();
    for (const id of [...this.#entries.keys()]) this.#forget(id);
  }

  #entry(id: unknown): SocketEntry {
    const entry = typeof id === "number" ? this.#entries.get(id) : undefined;
    if (!entry) throw Object.assign(new Error("this socket is closed (sockets close when their invocation ends)"), { code: "ERR_SOCKET_CLOSED" });
    return entry;
  }

  #forget(id: number): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    entry.destroy();
  }

  /** counts bytes against the invocation's cap; throws past it */
  #count(bytes: number): void {
    this.#traffic += bytes;
    if (this.#traffic > MAX_SOCKET_BYTES) throw new RangeError(`sockets carried more than ${MAX_SOCKET_BYTES / 1048576} MiB in this invocation`);
  }

  async #connect(raw: unknown): Promise<unknown> {
    const o = record(raw);
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
    // built before anything opens: bad options throw here, with nothing to clean up
    const tls = o.tls ? tlsOptions(o.tls, target.host) : undefined;
    return this.#opening(new SocketEntry(openSocket(target, tls)), tls ? "secureConnect" : "connect");
  }

  /** tls.connect({socket}): the plain socket's bytes go through TLS from now on, under a new id. */
  async #upgrade(rawId: unknown, raw: unknown): Promise<unknown> {
    const plain = this.#entry(rawId);
    const id = rawId as number;
    const socket = plain.socket as Socket;
    const o = record(raw);
    const host = typeof o.host === "string" ? o.host : (socket.remoteAddress ?? "localhost");
    let secure: TLSSocket;
    try {
      secure = tlsConnect({ ...tlsOptions(o, host), socket });
    } catch (e) {
      // refused at once (ciphers, a malformed key): the plain socket isn't left half-handed-over
      this.#forget(id);
      throw e;
    }
    this.#entries.delete(id);
    // its bytes are TLS's now; its 'error' listener stays (SocketEntry), and it goes with the new
    // one. Only our listeners are removed: the TLS socket's own on it carry the end of the stream.
    plain.detach();
    return this.#opening(new SocketEntry(secure, socket), "secureConnect");
  }

  #opening(entry: SocketEntry, ready: string): Promise<unknown> {
    const id = nextId++;
    this.#entries.set(id, entry);
    if (this.#closed) this.#forget(id);
    const socket = entry.socket;
    return new Promise((resolve) => {
      const failed = (e: Error) => {
        this.#forget(id);
        resolve(failure(e));
      };
      // closed unconnected without an error: destroyed here (the invocation ended, the isolate let go)
      const closed = () => failed(Object.assign(new Error("the socket closed before it was connected"), { code: "ECONNRESET" }));
      socket.once("error", failed);
      socket.once("close", closed);
      socket.once(ready, () => {
        socket.off("error", failed);
        socket.off("close", closed);
        entry.listen((bytes) => this.#count(bytes));
        const info = { id, localAddress: socket.localAddress, localPort: socket.localPort, remoteAddress: socket.remoteAddress, remotePort: socket.remotePort, remoteFamily: socket.remoteFamily };
        resolve(ready === "secureConnect" ? { ...info, ...tlsInfo(socket as TLSSocket) } : info);
      });
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
