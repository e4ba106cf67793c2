// node:fs inside the sandbox, for a component's own code and its packages alike. `/tmp` is a
// directory tree in memory, as Pipedream's ephemeral /tmp is a disk of the worker's: files and
// directories under it are made, read, streamed, renamed and removed as in Node. Nothing here
// touches the host: the tree is plain objects in the context, and every path is normalised (`.`,
// `..`, repeated slashes) before it is looked at, so no path names anything but a node of it.
// Every other path is one that isn't there: a read fails as Node's does on a missing file
// (`ENOENT`, which packages check for: the AWS SDK reads ~/.aws/config if it exists and carries
// on when it doesn't), a write as on a read-only disk (`EROFS`).
//
// The tree belongs to the context (a property of its global, so every step of a workflow and
// every module of a bundle sees one /tmp): it lives as long as the warm context does, from run to
// run of the same source, and is gone when the context is (a restart, an edit, an eviction).
// Its files hold at most TMP_MAX_BYTES in all; a write past that fails with ENOSPC, as on a
// full disk. Watchers, which no file here changes under, fail at once.
const { Buffer } = require("buffer");
const { Readable, Writable } = require("readable-stream");
const unavailable = require("./forbidden.cjs");

const TMP_MAX_BYTES = 64 * 1024 * 1024;
const TREE = Symbol.for("tributary.fs.tmp");

const ERRORS = {
  ENOENT: [-2, "no such file or directory"],
  EROFS: [-30, "read-only file system"],
  EEXIST: [-17, "file already exists"],
  ENOTDIR: [-20, "not a directory"],
  EISDIR: [-21, "illegal operation on a directory"],
  ENOTEMPTY: [-39, "directory not empty"],
  ENOSPC: [-28, "no space left on device"],
  EBADF: [-9, "bad file descriptor"],
  EINVAL: [-22, "invalid argument"],
  EPERM: [-1, "operation not permitted"],
  EBUSY: [-16, "resource busy or locked"],
};

function fsError(code, syscall, path, dest) {
  const [errno, what] = ERRORS[code];
  const where = path === undefined ? "" : ` '${path}'${dest === undefined ? "" : ` -> '${dest}'`}`;
  const e = new Error(`${code}: ${what}, ${syscall}${where}`);
  e.errno = errno;
  e.code = code;
  e.syscall = syscall;
  if (path !== undefined) e.path = path;
  if (dest !== undefined) e.dest = dest;
  return e;
}

function argError(message, code = "ERR_INVALID_ARG_TYPE") {
  const e = new TypeError(message);
  e.code = code;
  return e;
}

// ---- the tree ----------------------------------------------------------------------------------

function newDir() {
  const now = Date.now();
  return { dir: true, entries: new Map(), mtimeMs: now, birthtimeMs: now, ino: nextIno() };
}
function newFile() {
  const now = Date.now();
  return { dir: false, chunks: [], size: 0, mtimeMs: now, birthtimeMs: now, ino: nextIno() };
}

function state() {
  let s = globalThis[TREE];
  if (!s) {
    s = { root: null, used: 0, ino: 1, fds: new Map(), nextFd: 3 };
    Object.defineProperty(globalThis, TREE, { value: s });
    s.root = newDir();
  }
  return s;
}
function nextIno() {
  return state().ino++;
}

/** The file's bytes as one Buffer (its chunks joined once). */
function contents(file) {
  if (file.chunks.length !== 1) file.chunks = [Buffer.concat(file.chunks, file.size)];
  return file.chunks[0];
}

/** Sets a file's bytes, or adds to them, within the bound. */
function store(file, bytes, append, syscall, path) {
  const s = state();
  const size = append ? file.size + bytes.length : bytes.length;
  if ((file.orphan ? s.used + size : s.used - file.size + size) > TMP_MAX_BYTES) throw fsError("ENOSPC", syscall, path);
  const copy = Buffer.from(bytes);
  if (append) file.chunks.push(copy);
  else file.chunks = [copy];
  if (!file.orphan) s.used += size - file.size;
  file.size = size;
  file.mtimeMs = Date.now();
}

// a file removed while a descriptor or stream still has it open: still bounded, no longer counted
function release(node) {
  if (node.dir) for (const child of node.entries.values()) release(child);
  else {
    state().used -= node.size;
    node.orphan = true;
  }
}

function pathOf(p, name = "path") {
  if (p instanceof URL) {
    if (p.protocol !== "file:") throw argError("The URL must be of scheme file", "ERR_INVALID_URL_SCHEME");
    p = decodeURIComponent(p.pathname);
  } else if (p instanceof Uint8Array) p = Buffer.from(p).toString();
  if (typeof p !== "string") throw argError(`The "${name}" argument must be of type string or an instance of Buffer or URL. Received ${describe(p)}`);
  if (p.includes("\u0000")) throw argError(`The argument '${name}' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(p)}`, "ERR_INVALID_ARG_VALUE");
  return p;
}
function describe(v) {
  return v === null ? "null" : v === undefined ? "undefined" : `type ${typeof v}`;
}

/** The segments of `p` below /tmp, once normalised; null for a path outside it. */
function segments(p) {
  const cwd = typeof globalThis.process?.cwd === "function" ? String(globalThis.process.cwd()) : "/";
  const full = p.startsWith("/") ? p : `${cwd}/${p}`;
  const out = [];
  for (const seg of full.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out[0] === "tmp" ? out.slice(1) : null;
}

/**
 * What `p` names: { segs, node, parent, name }. `node` is undefined when missing; `parent` the
 * directory it would be in (undefined when that is missing too). Outside /tmp: segs null.
 */
function lookup(p, syscall) {
  const segs = segments(p);
  if (segs === null) return { segs, node: undefined, parent: undefined, name: undefined };
  let node = state().root;
  let parent;
  for (let i = 0; i < segs.length; i++) {
    if (!node.dir) throw fsError("ENOTDIR", syscall, p);
    parent = node;
    node = node.entries.get(segs[i]);
    if (node === undefined) {
      // a missing directory on the way: nothing below it, and no parent to make it in
      if (i < segs.length - 1) return { segs, node: undefined, parent: undefined, name: segs[i + 1] };
      break;
    }
  }
  return { segs, node, parent, name: segs.length === 0 ? undefined : segs[segs.length - 1] };
}

function existing(p, syscall) {
  const at = lookup(p, syscall);
  if (!at.node) throw fsError("ENOENT", syscall, p);
  return at;
}

/** The file at `p` for writing, made when missing (in an existing directory). */
function fileForWrite(p, syscall, flag = "w") {
  const at = lookup(p, syscall);
  if (at.segs === null) throw fsError("EROFS", syscall, p);
  if (at.node) {
    if (at.node.dir) throw fsError("EISDIR", syscall, p);
    if (flag.includes("x")) throw fsError("EEXIST", syscall, p);
    return at.node;
  }
  if (!at.parent) throw fsError("ENOENT", syscall, p);
  const file = newFile();
  at.parent.entries.set(at.name, file);
  at.parent.mtimeMs = file.mtimeMs;
  return file;
}

function fileForRead(p, syscall) {
  const { node } = existing(p, syscall);
  if (node.dir) throw fsError("EISDIR", "read", undefined);
  return node;
}

// ---- options and data --------------------------------------------------------------------------

const encodingOf = (options) => (typeof options === "string" ? options : options?.encoding ?? null);
const flagOf = (options, fallback) => (typeof options === "object" && options !== null && options.flag) || fallback;

function bytesOf(data, options) {
  if (typeof data === "string") return Buffer.from(data, encodingOf(options) ?? "utf8");
  if (Buffer.isBuffer(data)) return data;
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw argError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
}

function decoded(buf, options) {
  const encoding = encodingOf(options);
  return encoding && encoding !== "buffer" ? buf.toString(encoding) : Buffer.from(buf);
}

// ---- Stats and Dirent --------------------------------------------------------------------------

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

class Stats {
  constructor(node) {
    this.dev = 1;
    this.mode = node.dir ? S_IFDIR | 0o777 : S_IFREG | 0o666;
    this.nlink = 1;
    this.uid = 0;
    this.gid = 0;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = node.ino;
    this.size = node.dir ? 4096 : node.size;
    this.blocks = Math.ceil(this.size / 512);
    this.atimeMs = node.mtimeMs;
    this.mtimeMs = node.mtimeMs;
    this.ctimeMs = node.mtimeMs;
    this.birthtimeMs = node.birthtimeMs;
    this.atime = new Date(node.mtimeMs);
    this.mtime = new Date(node.mtimeMs);
    this.ctime = new Date(node.mtimeMs);
    this.birthtime = new Date(node.birthtimeMs);
  }
  isFile() {
    return (this.mode & S_IFMT) === S_IFREG;
  }
  isDirectory() {
    return (this.mode & S_IFMT) === S_IFDIR;
  }
  isSymbolicLink() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
}

class Dirent {
  constructor(name, node, parentPath) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    Object.defineProperty(this, "_dir", { value: node.dir });
  }
  isFile() {
    return !this._dir;
  }
  isDirectory() {
    return this._dir;
  }
  isSymbolicLink() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
}

// ---- the calls, synchronous --------------------------------------------------------------------

const sync = {};

sync.readFile = (path, options) => {
  if (typeof path === "number") return decoded(contents(fdOf(path, "read").node), options);
  const p = pathOf(path);
  return decoded(contents(fileForRead(p, "open")), options);
};

function write(path, data, options, append) {
  const bytes = bytesOf(data, options);
  if (typeof path === "number") {
    const fd = fdOf(path, "write");
    return void store(fd.node, bytes, append || fd.append, "write", fd.path);
  }
  const p = pathOf(path);
  const flag = flagOf(options, append ? "a" : "w");
  store(fileForWrite(p, "open", flag), bytes, append || flag.startsWith("a"), "write", p);
}
sync.writeFile = (path, data, options) => write(path, data, options, false);
sync.appendFile = (path, data, options) => write(path, data, options, true);

sync.access = (path, _mode) => {
  const p = pathOf(path);
  existing(p, "access");
};

sync.exists = (path) => {
  try {
    return lookup(pathOf(path), "access").node !== undefined;
  } catch {
    return false;
  }
};

sync.stat = (path, options) => {
  const p = pathOf(path);
  const at = lookup(p, "stat");
  if (!at.node) {
    if (options?.throwIfNoEntry === false) return undefined;
    throw fsError("ENOENT", "stat", p);
  }
  return new Stats(at.node);
};
sync.lstat = (path, options) => {
  const p = pathOf(path);
  const at = lookup(p, "lstat");
  if (!at.node) {
    if (options?.throwIfNoEntry === false) return undefined;
    throw fsError("ENOENT", "lstat", p);
  }
  return new Stats(at.node);
};

sync.readdir = (path, options) => {
  const p = pathOf(path);
  const { node, segs } = existing(p, "scandir");
  if (!node.dir) throw fsError("ENOTDIR", "scandir", p);
  const names = [...node.entries.keys()].sort();
  if (typeof options === "object" && options?.withFileTypes) {
    const parent = `/${["tmp", ...segs].join("/")}`;
    return names.map((name) => new Dirent(name, node.entries.get(name), parent));
  }
  const encoding = encodingOf(options);
  return encoding === "buffer" ? names.map((n) => Buffer.from(n)) : names;
};

sync.mkdir = (path, options) => {
  const p = pathOf(path);
  const recursive = typeof options === "object" && options !== null && options.recursive === true;
  const segs = segments(p);
  if (segs === null) throw fsError("EROFS", "mkdir", p);
  if (!recursive) {
    const at = lookup(p, "mkdir");
    if (at.node) throw fsError("EEXIST", "mkdir", p);
    if (!at.parent) throw fsError("ENOENT", "mkdir", p);
    const dir = newDir();
    at.parent.entries.set(at.name, dir);
    at.parent.mtimeMs = dir.mtimeMs;
    return undefined;
  }
  let node = state().root;
  let first;
  for (let i = 0; i < segs.length; i++) {
    let next = node.entries.get(segs[i]);
    if (next === undefined) {
      next = newDir();
      node.entries.set(segs[i], next);
      node.mtimeMs = next.mtimeMs;
      first ??= `/${["tmp", ...segs.slice(0, i + 1)].join("/")}`;
    } else if (!next.dir) throw fsError(i === segs.length - 1 ? "EEXIST" : "ENOTDIR", "mkdir", p);
    node = next;
  }
  return first;
};

sync.mkdtemp = (prefix, _options) => {
  const p = pathOf(prefix, "prefix");
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (;;) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
    const name = p + Array.from(bytes, (b) => letters[b % letters.length]).join("");
    if (lookup(name, "mkdtemp").node) continue;
    try {
      sync.mkdir(name);
    } catch (e) {
      throw fsError(e.code, "mkdtemp", `${p}XXXXXX`);
    }
    return name;
  }
};

function remove(p, syscall, { recursive = false, force = false, dirOnly = false, fileOnly = false }) {
  const at = lookup(p, syscall);
  // outside /tmp nothing is there to remove, and nothing may be written
  if (at.segs === null) {
    if (force) return;
    throw fsError("EROFS", syscall, p);
  }
  if (!at.node) {
    if (force) return;
    throw fsError("ENOENT", syscall, p);
  }
  if (at.segs.length === 0) throw fsError("EBUSY", syscall, p);
  if (fileOnly && at.node.dir) throw fsError("EISDIR", syscall, p);
  if (dirOnly && !at.node.dir) throw fsError("ENOTDIR", syscall, p);
  if (at.node.dir && at.node.entries.size > 0 && !recursive) throw fsError(dirOnly ? "ENOTEMPTY" : "EISDIR", syscall, p);
  if (at.node.dir && !recursive && !dirOnly) throw fsError("EISDIR", syscall, p);
  at.parent.entries.delete(at.name);
  at.parent.mtimeMs = Date.now();
  release(at.node);
}
sync.rm = (path, options) => remove(pathOf(path), "rm", { recursive: options?.recursive === true, force: options?.force === true });
sync.rmdir = (path, options) => remove(pathOf(path), "rmdir", { recursive: options?.recursive === true, dirOnly: true });
sync.unlink = (path) => remove(pathOf(path), "unlink", { fileOnly: true });

sync.rename = (from, to) => {
  const a = pathOf(from, "oldPath");
  const b = pathOf(to, "newPath");
  const src = lookup(a, "rename");
  const dst = lookup(b, "rename");
  if (src.segs === null || dst.segs === null) throw fsError("EROFS", "rename", a, b);
  if (!src.node) throw fsError("ENOENT", "rename", a, b);
  if (src.segs.length === 0 || dst.segs.length === 0) throw fsError("EBUSY", "rename", a, b);
  if (!dst.parent) throw fsError("ENOENT", "rename", a, b);
  if (src.node === dst.node) return;
  // a directory can't go inside itself
  if (src.node.dir && dst.segs.length > src.segs.length && src.segs.every((s, i) => dst.segs[i] === s)) throw fsError("EINVAL", "rename", a, b);
  if (dst.node) {
    if (dst.node.dir && !src.node.dir) throw fsError("EISDIR", "rename", a, b);
    if (!dst.node.dir && src.node.dir) throw fsError("ENOTDIR", "rename", a, b);
    if (dst.node.dir && dst.node.entries.size > 0) throw fsError("ENOTEMPTY", "rename", a, b);
    release(dst.node);
  }
  src.parent.entries.delete(src.name);
  dst.parent.entries.set(dst.name, src.node);
  src.parent.mtimeMs = dst.parent.mtimeMs = Date.now();
};

sync.copyFile = (from, to, mode = 0) => {
  const a = pathOf(from, "src");
  const b = pathOf(to, "dest");
  const src = fileForRead(a, "copyfile");
  const dst = lookup(b, "copyfile");
  if (dst.segs === null) throw fsError("EROFS", "copyfile", a, b);
  if (dst.node && mode & 1) throw fsError("EEXIST", "copyfile", a, b);
  if (dst.node?.dir) throw fsError("EISDIR", "copyfile", a, b);
  if (!dst.node && !dst.parent) throw fsError("ENOENT", "copyfile", a, b);
  const bytes = contents(src);
  store(fileForWrite(b, "copyfile"), bytes, false, "copyfile", b);
};

sync.cp = (from, to, options) => {
  const a = pathOf(from, "src");
  const b = pathOf(to, "dest");
  const src = existing(a, "cp");
  const dst = lookup(b, "cp");
  if (dst.segs === null) throw fsError("EROFS", "cp", b);
  if (src.node.dir) {
    if (options?.recursive !== true) throw fsError("EISDIR", "cp", a);
    // not into itself: the copy would never end
    if (dst.segs.length >= src.segs.length && src.segs.every((seg, i) => dst.segs[i] === seg)) throw fsError("EINVAL", "cp", a, b);
    sync.mkdir(b, { recursive: true });
    for (const name of [...src.node.entries.keys()]) sync.cp(`${a}/${name}`, `${b}/${name}`, options);
    return;
  }
  if (dst.node) {
    if (options?.errorOnExist === true && options?.force === false) throw fsError("EEXIST", "cp", b);
    if (options?.force === false) return;
  }
  sync.copyFile(a, b);
};

sync.truncate = (path, len = 0) => {
  const p = typeof path === "number" ? fdOf(path, "ftruncate").path : pathOf(path);
  const file = fileForWrite(p, "open");
  const bytes = Buffer.alloc(len);
  contents(file).copy(bytes, 0, 0, Math.min(len, file.size));
  store(file, bytes, false, "ftruncate", p);
};

sync.realpath = (path) => {
  const p = pathOf(path);
  const { segs } = existing(p, "realpath");
  return `/${["tmp", ...segs].join("/")}`;
};

sync.utimes = (path, _atime, mtime) => {
  const { node } = existing(pathOf(path), "utime");
  node.mtimeMs = mtime instanceof Date ? mtime.getTime() : Number(mtime) * 1000;
};

// what no file here has: links, owners and modes (a write outside /tmp stays EROFS)
for (const [name, syscall] of [["readlink", "readlink"], ["symlink", "symlink"], ["link", "link"], ["chmod", "chmod"], ["chown", "chown"]]) {
  sync[name] = (path) => {
    const p = pathOf(path);
    const at = lookup(p, syscall);
    if (at.segs === null) throw fsError(name === "readlink" ? "ENOENT" : "EROFS", syscall, p);
    if (!at.node) throw fsError("ENOENT", syscall, p);
    if (name === "readlink") throw fsError("EINVAL", syscall, p);
    if (name === "symlink" || name === "link") throw fsError("EPERM", syscall, p);
  };
}

// ---- descriptors -------------------------------------------------------------------------------

function fdOf(fd, syscall) {
  const open = state().fds.get(fd);
  if (!open) throw fsError("EBADF", syscall);
  return open;
}

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
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_EXCL } = fs.constants;
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

// ---- the module: sync, callback and promise forms ----------------------------------------------

const fs = {
  constants: {
    F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
    COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4, S_IFMT, S_IFREG, S_IFDIR,
  },
};
const promises = { constants: fs.constants };

const later = (fn) => (typeof globalThis.process?.nextTick === "function" ? globalThis.process.nextTick(fn) : queueMicrotask(fn));

for (const [name, call] of Object.entries(sync)) {
  if (name === "exists") continue;
  fs[`${name}Sync`] = call;
  fs[name] = (...args) => {
    const cb = args.pop();
    if (typeof cb !== "function") throw argError(`The "cb" argument must be of type function. Received ${describe(cb)}`);
    let out;
    try {
      out = call(...args);
    } catch (e) {
      // a wrong argument throws at the call, as in Node; what the file system says goes to the callback
      if (typeof e?.code === "string" && e.code.startsWith("ERR_")) throw e;
      return void later(() => cb(e));
    }
    if (name === "read") later(() => cb(null, out, args[1]));
    else if (name === "write") later(() => cb(null, out, args[1]));
    else later(() => cb(null, out));
  };
  if (!["open", "close", "read", "write", "fstat"].includes(name)) promises[name] = async (...args) => call(...args);
}
fs.existsSync = sync.exists;
fs.realpathSync.native = fs.realpathSync;
fs.realpath.native = fs.realpath;
Object.assign(fs, { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 });
// directories as handles and file-system statistics: none here, as before /tmp was
for (const name of ["opendir", "statfs"]) {
  const fail = (path) => fsError("ENOENT", name, typeof path === "string" ? path : undefined);
  fs[`${name}Sync`] = (path) => {
    throw fail(path);
  };
  fs[name] = (path, ...rest) => {
    const cb = rest.findLast((a) => typeof a === "function");
    if (typeof cb !== "function") throw argError('The "cb" argument must be of type function');
    later(() => cb(fail(path)));
  };
  promises[name] = async (path) => {
    throw fail(path);
  };
}
fs.exists = (path, cb) => {
  if (typeof cb === "function") later(() => cb(sync.exists(path)));
};

// fs/promises' open: a FileHandle over a descriptor
class FileHandle {
  constructor(fd) {
    this.fd = fd;
  }
  async readFile(options) {
    return sync.readFile(this.fd, options);
  }
  async writeFile(data, options) {
    return sync.writeFile(this.fd, data, options);
  }
  async appendFile(data, options) {
    return sync.appendFile(this.fd, data, options);
  }
  async stat() {
    return sync.fstat(this.fd);
  }
  async read(buffer, offset, length, position) {
    buffer ??= Buffer.alloc(16384);
    const bytesRead = sync.read(this.fd, buffer, offset, length, position);
    return { bytesRead, buffer };
  }
  async write(data, offset, length, position) {
    const bytesWritten = sync.write(this.fd, data, offset, length, position);
    return { bytesWritten, buffer: data };
  }
  async truncate(len = 0) {
    return sync.truncate(this.fd, len);
  }
  async close() {
    if (this.fd !== -1) sync.close(this.fd);
    this.fd = -1;
  }
  createReadStream(options) {
    return new ReadStream(fdOf(this.fd, "read").path, options);
  }
  createWriteStream(options) {
    return new WriteStream(fdOf(this.fd, "write").path, { flags: "a", ...options });
  }
}
promises.open = async (path, flags, mode) => new FileHandle(sync.open(path, flags, mode));

// ---- streams -----------------------------------------------------------------------------------

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
      if (this.fd === null) this.fd = sync.open(this.path, this.flags);
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
      if (this.fd === null) this.fd = sync.open(this.path, this.flags);
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
      this.bytesWritten += sync.write(this.fd, bytes);
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

fs.ReadStream = ReadStream;
fs.WriteStream = WriteStream;
fs.createReadStream = (path, options) => new ReadStream(path, options);
fs.createWriteStream = (path, options) => new WriteStream(path, options);
fs.Stats = Stats;
fs.Dirent = Dirent;
for (const name of ["watch", "watchFile", "unwatchFile"]) fs[name] = unavailable(`fs.${name}`);
// Classes packages test values against (`x instanceof fs.FSWatcher`): present, and never made.
for (const name of ["FSWatcher", "StatWatcher"]) {
  fs[name] = {
    [name]: class {
      constructor() {
        throw new Error(`fs.${name} is not available in the sandbox`);
      }
    },
  }[name];
}
promises.FileHandle = FileHandle;
fs.promises = promises;

module.exports = fs;
