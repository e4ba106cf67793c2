// The synchronous calls on a descriptor (openSync, readSync, writeSync, fstatSync, closeSync):
// a descriptor is a number standing for { node, path, pos, append, writable } in the context's
// table (tree.cjs), so streams and FileHandles, which are made of these, see the same files.
const { Buffer } = require("buffer");
const { fsError } = require("./errors.cjs");
const { state, contents, store, pathOf, existing, fileForWrite, fdOf } = require("./tree.cjs");
const { bytesOf } = require("./data.cjs");
const { Stats } = require("./stats.cjs");
const constants = require("./constants.cjs");

const sync = {};

sync.open = (path, flags = "r", _mode) => {
  const p = pathOf(path);
  const f = typeof flags === "number" ? numericFlag(flags) : String(flags);
  let node;
  if (f.startsWith("r")) {
    node = existing(p, "open").node;
    if (node.dir && f !== "r") throw fsError("EISDIR", "open", p);
  } else {
    node = fileForWrite(p, "open", f);
    if (f.startsWith("w")) store(node, Buffer.alloc(0), false, "open", p);
  }
  const s = state();
  const fd = s.nextFd++;
  s.fds.set(fd, { node, path: p, pos: 0, append: f.startsWith("a"), writable: !f.startsWith("r") || f.includes("+") });
  return fd;
};
function numericFlag(n) {
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_EXCL } = constants;
  const rw = n & O_RDWR ? "+" : "";
  if (n & O_APPEND) return `a${n & O_EXCL ? "x" : ""}${rw}`;
  if (n & (O_CREAT | O_TRUNC) || n & O_WRONLY) return `${n & O_TRUNC || !(n & O_RDWR) ? "w" : "r"}${n & O_EXCL ? "x" : ""}${rw}`;
  return `r${rw}`;
}
sync.close = (fd) => {
  if (!state().fds.delete(fd)) throw fsError("EBADF", "close");
};
sync.fstat = (fd) => new Stats(fdOf(fd, "fstat").node);
sync.read = (fd, buffer, offset = 0, length, position) => {
  if (typeof offset === "object" && offset !== null) ({ offset = 0, length, position } = offset);
  const open = fdOf(fd, "read");
  if (open.node.dir) throw fsError("EISDIR", "read");
  length ??= buffer.byteLength - offset;
  const from = typeof position === "number" && position >= 0 ? position : open.pos;
  const data = contents(open.node);
  const n = Math.max(0, Math.min(length, data.length - from));
  data.copy(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength), offset, from, from + n);
  if (!(typeof position === "number" && position >= 0)) open.pos += n;
  return n;
};
sync.write = (fd, data, offset, length, position) => {
  const open = fdOf(fd, "write");
  if (!open.writable) throw fsError("EBADF", "write");
  let bytes;
  if (typeof data === "string") {
    // write(fd, string[, position[, encoding]])
    bytes = Buffer.from(data, typeof length === "string" ? length : "utf8");
    position = offset;
  } else {
    const buf = bytesOf(data);
    const start = typeof offset === "number" ? offset : 0;
    bytes = buf.subarray(start, start + (typeof length === "number" ? length : buf.length - start));
  }
  const at = open.append ? open.node.size : typeof position === "number" && position >= 0 ? position : open.pos;
  if (at === open.node.size) store(open.node, bytes, true, "write", open.path);
  else {
    const old = contents(open.node);
    const next = Buffer.alloc(Math.max(old.length, at + bytes.length));
    old.copy(next);
    bytes.copy(next, at);
    store(open.node, next, false, "write", open.path);
  }
  if (!(typeof position === "number" && position >= 0)) open.pos = at + bytes.length;
  return bytes.length;
};

module.exports = sync;
