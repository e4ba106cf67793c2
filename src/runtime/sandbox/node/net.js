// node:net inside the sandbox, clients only: a Socket is a Duplex whose real socket lives in the
// runner (sandbox/sockets/sockets.ts), under the address guard and the invocation's caps. Reads are pulled
// (each answer brings every byte that arrived meanwhile), writes are batched (_writev), so a
// driver's burst of messages crosses the isolate's boundary once. Bundled into components.
import { Duplex } from "readable-stream";
import { Buffer } from "buffer";
import { ask, now } from "tributary:sockets";

const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIPv4(s) {
  return typeof s === "string" && V4.test(s);
}

export function isIPv6(s) {
  if (typeof s !== "string" || s.length > 64) return false;
  let v = s.split("%")[0];
  const tail = /:(\d+\.\d+\.\d+\.\d+)$/.exec(v);
  if (tail) {
    if (!isIPv4(tail[1])) return false;
    v = v.slice(0, -tail[1].length) + "0:0";
  }
  const halves = v.split("::");
  if (halves.length > 2) return false;
  const groups = (h) => (h === "" ? [] : h.split(":"));
  const all = halves.flatMap(groups);
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  return halves.length === 2 ? all.length < 8 : all.length === 8;
}

export function isIP(s) {
  return isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0;
}

/** an Error as Node's would be, from what the runner said */
export function socketError(e) {
  const err = new Error(String(e?.message ?? "socket error"));
  if (e?.code) err.code = e.code;
  return err;
}

/** net.connect's forms: (options[, cb]), (port[, host][, cb]), (path[, cb]) */
export function connectArgs(args) {
  const cb = typeof args[args.length - 1] === "function" ? args[args.length - 1] : undefined;
  const a = cb ? args.slice(0, -1) : args;
  if (a[0] !== null && typeof a[0] === "object") return [{ ...a[0] }, cb];
  if (typeof a[0] === "string" && !/^\d+$/.test(a[0])) return [{ path: a[0] }, cb];
  return [{ port: a[0], host: a[1] }, cb];
}

function bytesOf(chunks) {
  let total = 0;
  for (const { chunk } of chunks) total += chunk.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const { chunk } of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export class Socket extends Duplex {
  constructor(options = {}) {
    super({ allowHalfOpen: Boolean(options.allowHalfOpen), emitClose: true, autoDestroy: true, decodeStrings: true });
    this._handleId = undefined;
    this._reading = false;
    this._wantsRead = false;
    this._idleMs = 0;
    this._lastActive = 0;
    this._idleTimer = undefined;
    this._settings = [];
    this.connecting = false;
    this.bytesRead = 0;
    this.bytesWritten = 0;
    this.remoteAddress = undefined;
    this.remotePort = undefined;
    this.remoteFamily = undefined;
    this.localAddress = undefined;
    this.localPort = undefined;
  }

  get readyState() {
    if (this.connecting) return "opening";
    if (this._handleId === undefined || this.destroyed) return "closed";
    if (this.readable && this.writable) return "open";
    return this.readable ? "readOnly" : this.writable ? "writeOnly" : "closed";
  }

  get pending() {
    return this._handleId === undefined;
  }

  get bufferSize() {
    return this.writableLength;
  }

  connect(...args) {
    const [options, cb] = connectArgs(args);
    if (cb) this.once("connect", cb);
    if (options.path !== undefined) {
      queueMicrotask(() => this.destroy(socketError({ message: "Unix domain sockets are not available in the sandbox", code: "ERR_SANDBOX" })));
      return this;
    }
    if (options.timeout) this.setTimeout(options.timeout);
    const port = Number(options.port);
    this._open(["connect", { host: options.host ?? "localhost", port }], ["connect"]);
    return this;
  }

  /** asks the runner for a socket ([call, ...args]); `events`: what to emit once it is open */
  _open(request, events) {
    this.connecting = true;
    ask(...request).then(
      (r) => {
        this.connecting = false;
        if (this.destroyed) {
          if (r.id !== undefined) this._quietly("destroy", r.id);
          return;
        }
        if (r.error) return this.destroy(socketError(r.error));
        this._attach(r);
        // refused by a check of its own (tls.js: the component's checkServerIdentity)
        if (this.destroyed) return;
        for (const e of events) this.emit(e);
        this.emit("ready");
      },
      (e) => {
        this.connecting = false;
        this.destroy(e);
      },
    );
  }

  _attach(info) {
    this._handleId = info.id;
    for (const k of ["remoteAddress", "remotePort", "remoteFamily", "localAddress", "localPort"]) this[k] = info[k];
    this._touch();
    for (const [what, ...args] of this._settings) this._quietly(what, info.id, ...args);
    this._settings = [];
    if (this._wantsRead) this._read();
    this.emit("_open");
  }

  _quietly(what, ...args) {
    try {
      now(what, ...args);
    } catch {
      // the socket is gone (its invocation ended): nothing to set or close
    }
  }

  _touch() {
    this._lastActive = Date.now();
  }

  _read() {
    if (this._handleId === undefined) {
      this._wantsRead = true;
      return;
    }
    if (this._reading) return;
    this._reading = true;
    const id = this._handleId;
    ask("read", id).then(
      (r) => {
        this._reading = false;
        if (this.destroyed || id !== this._handleId) return;
        if (r.data) {
          this.bytesRead += r.data.length;
          this._touch();
          this.push(Buffer.from(r.data.buffer, r.data.byteOffset, r.data.length));
        } else if (r.end) this.push(null);
        else this.destroy(socketError(r.error));
      },
      (e) => this.destroy(e),
    );
  }

  _write(chunk, encoding, cb) {
    this._writev([{ chunk }], cb);
  }

  _writev(chunks, cb) {
    if (this._handleId === undefined) {
      if (!this.connecting) return cb(socketError({ message: "This socket is not connected", code: "ERR_SOCKET_CLOSED" }));
      this.once("_open", () => this._writev(chunks, cb));
      return;
    }
    const bytes = bytesOf(chunks);
    let more;
    try {
      more = now("write", this._handleId, bytes);
    } catch (e) {
      return cb(e);
    }
    this.bytesWritten += bytes.length;
    this._touch();
    if (more) return cb();
    ask("drain", this._handleId).then(() => cb(), cb);
  }

  _final(cb) {
    if (this._handleId !== undefined) this._quietly("end", this._handleId);
    cb();
  }

  _destroy(err, cb) {
    clearTimeout(this._idleTimer);
    if (this._handleId !== undefined) this._quietly("destroy", this._handleId);
    this.connecting = false;
    cb(err);
  }

  setTimeout(ms, cb) {
    this._idleMs = Math.max(0, Number(ms) || 0);
    if (typeof cb === "function") {
      if (this._idleMs === 0) this.off("timeout", cb);
      else this.once("timeout", cb);
    }
    clearTimeout(this._idleTimer);
    this._idleTimer = undefined;
    if (this._idleMs > 0) {
      this._touch();
      this._armIdle(this._idleMs);
    }
    return this;
  }

  // One sandbox timer per idle period, not one per read or write: when it fires early (there was
  // activity meanwhile) it waits out the rest.
  _armIdle(ms) {
    this._idleTimer = setTimeout(() => {
      const left = this._lastActive + this._idleMs - Date.now();
      if (this.destroyed || this._idleMs === 0) return;
      if (left > 0) return this._armIdle(left);
      this._armIdle(this._idleMs);
      this.emit("timeout");
    }, ms);
  }

  _setting(what, ...args) {
    if (this._handleId === undefined) this._settings.push([what, ...args]);
    else this._quietly(what, this._handleId, ...args);
    return this;
  }

  setNoDelay(noDelay = true) {
    return this._setting("noDelay", noDelay !== false);
  }

  setKeepAlive(enable = false, initialDelay = 0) {
    return this._setting("keepAlive", enable === true, Number(initialDelay) || 0);
  }

  address() {
    return this.localAddress === undefined ? {} : { address: this.localAddress, family: this.remoteFamily, port: this.localPort };
  }

  // Nothing here keeps a run alive (it ends when the component's run does), so there is nothing to unref.
  ref() {
    return this;
  }
  unref() {
    return this;
  }
  destroySoon() {
    this.end();
  }
  resetAndDestroy() {
    return this.destroy();
  }
}

export function connect(...args) {
  const [options] = connectArgs(args);
  const socket = new Socket(options);
  return socket.connect(...args);
}
export const createConnection = connect;

function noServers() {
  throw new Error("net.createServer is not available in the sandbox: components can open client sockets (net.connect), not listen");
}
export const createServer = noServers;
export class Server {
  constructor() {
    noServers();
  }
}

export const getDefaultAutoSelectFamily = () => true;
export const setDefaultAutoSelectFamily = () => {};

export default { Socket, Stream: Socket, Server, connect, createConnection, createServer, isIP, isIPv4, isIPv6, getDefaultAutoSelectFamily, setDefaultAutoSelectFamily };
