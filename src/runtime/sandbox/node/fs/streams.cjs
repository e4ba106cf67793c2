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

/**
 * A stream's _construct: its descriptor opened (or the one it was given, its path read from it),
 * checked by `check`, then "open" and "ready" as Node's streams say them.
 */
function openFor(stream, mode, callback, check) {
  try {
    if (stream.fd === null) stream.fd = fdCalls.open(stream.path, stream.flags);
    else stream.path ??= fdOf(stream.fd, mode).path;
    check(fdOf(stream.fd, mode));
  } catch (e) {
    return void callback(e);
  }
  stream.pending = false;
  callback();
  stream.emit("open", stream.fd);
  stream.emit("ready");
}

/** A stream's _destroy: its descriptor goes with it. */
function release(stream, err, callback) {
  if (typeof stream.fd === "number") state().fds.delete(stream.fd);
  stream.fd = null;
  callback(err);
}

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
    openFor(this, "read", callback, (fd) => {
      if (fd.node.dir) throw fsError("EISDIR", "read");
    });
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
    release(this, err, callback);
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
    openFor(this, "write", callback, (fd) => {
      if (typeof this.start === "number") fd.pos = this.start;
    });
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
    release(this, err, callback);
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
