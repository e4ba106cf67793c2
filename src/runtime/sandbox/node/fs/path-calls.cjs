// The synchronous calls that name a file or directory by its path (readFileSync, mkdirSync,
// renameSync, ...): what each does to the tree, and the error Node gives where it can't. The
// callback and promise forms are made from these (forms.cjs), so each call's rules live once.
// A path outside /tmp is missing when read and read-only when written (tree.cjs).
const { Buffer } = require("buffer");
const { fsError } = require("./errors.cjs");
const { state, newDir, contents, store, release, pathOf, segments, lookup, existing, fileForWrite, fileForRead, fdOf } = require("./tree.cjs");
const { encodingOf, flagOf, bytesOf, decoded } = require("./data.cjs");
const { Stats, Dirent } = require("./stats.cjs");

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

module.exports = sync;
