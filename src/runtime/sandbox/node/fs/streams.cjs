// fs.ReadStream and fs.WriteStream: real streams (readable-stream's, as the sandbox's `stream`
// is), so a download piped into createWriteStream, or a file piped out of createReadStream, goes
// through the pipe, backpressure and events Node's would. Each holds a descriptor of its own
// (fd-calls.cjs) for its life, released when it is destroyed.
const { Buffer } = require("buffer");
const { Readable, Writable } = require("readable-stream");
const { fsError } = require("./errors.cjs");
const { state, contents, pathOf, fdOf } = require("./tree.cjs");
const fdCalls = require("./fd-calls.cjs");
const { later } = require("./forms.cjs");

class ReadStream extends Readable {
  constructor(path, options) {
    const o = typeof options === "string" ? { encoding: options } : options ?? {};
    super({ highWaterMark: o.highWaterMark ?? 64 * 1024, encoding: o.encoding ?? undefined, signal: o.signal, emitClose: o.emitClose ?? true, autoDestroy: o.autoClose ?? true });
    this.path = typeof path === "number" ? undefined : pathOf(path);
    this.fd = typeof path === "number" ? path : o.fd ?? null;
    this.flags = o.flags ?? "r";
    this.start = o.start;
    this.end = o.end ?? Infinity;
    this.pos = o.start ?? 0;
    this.bytesRead = 0;
    this.pending = true;
  }
  _construct(callback) {
    try {
      if (this.fd === null) this.fd = fdCalls.open(this.path, this.flags);
      else this.path ??= fdOf(this.fd, "read").path;
      if (fdOf(this.fd, "read").node.dir) throw fsError("EISDIR", "read");
    } catch (e) {
      return void callback(e);
    }
    this.pending = false;
    callback();
    this.emit("open", this.fd);
    this.emit("ready");
  }
  _read(size) {
    let data;
    try {
      data = contents(fdOf(this.fd, "read").node);
    } catch (e) {
      return void this.destroy(e);
    }
    const stop = Math.min(data.length, this.end + 1);
    if (this.pos >= stop) return void this.push(null);
    const chunk = Buffer.from(data.subarray(this.pos, Math.min(stop, this.pos + size)));
    this.pos += chunk.length;
    this.bytesRead += chunk.length;
    this.push(chunk);
  }
  _destroy(err, callback) {
    if (typeof this.fd === "number") state().fds.delete(this.fd);
    this.fd = null;
    callback(err);
  }
  close(cb) {
    if (typeof cb === "function") this.once("close", () => cb());
    this.destroy();
  }
}

class WriteStream extends Writable {
  constructor(path, options) {
    const o = typeof options === "string" ? { encoding: options } : options ?? {};
    super({ highWaterMark: o.highWaterMark ?? 16 * 1024, decodeStrings: true, defaultEncoding: o.encoding ?? "utf8", signal: o.signal, emitClose: o.emitClose ?? true, autoDestroy: o.autoClose ?? true });
    this.path = typeof path === "number" ? undefined : pathOf(path);
    this.fd = typeof path === "number" ? path : o.fd ?? null;
    this.flags = o.flags ?? "w";
    this.start = o.start;
    this.bytesWritten = 0;
    this.pending = true;
  }
  _construct(callback) {
    try {
      if (this.fd === null) this.fd = fdCalls.open(this.path, this.flags);
      else this.path ??= fdOf(this.fd, "write").path;
      if (typeof this.start === "number") fdOf(this.fd, "write").pos = this.start;
    } catch (e) {
      return void callback(e);
    }
    this.pending = false;
    callback();
    this.emit("open", this.fd);
    this.emit("ready");
  }
  _write(chunk, encoding, callback) {
    try {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
      this.bytesWritten += fdCalls.write(this.fd, bytes);
    } catch (e) {
      return void callback(e);
    }
    callback();
  }
  _destroy(err, callback) {
    if (typeof this.fd === "number") state().fds.delete(this.fd);
    this.fd = null;
    callback(err);
  }
  close(cb) {
    if (typeof cb === "function") {
      if (this.closed) later(() => cb());
      else this.once("close", () => cb());
    }
    if (!this.writableEnded) this.end();
    else if (!this.destroyed) this.destroy();
  }
  destroySoon() {
    this.end();
  }
}

module.exports = { ReadStream, WriteStream };
