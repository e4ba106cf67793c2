// The /tmp tree itself: directories and files as plain objects in the context, the 64 MiB bound
// on what its files hold, the open descriptors, and how a path names a node of it. Nothing here
// touches the host: every path is normalised (`.`, `..`, repeated slashes) before it is looked
// at, so no path names anything but a node of the tree, and one outside /tmp names nothing.
//
// The tree belongs to the context (a property of its global, so every step of a workflow and
// every module of a bundle sees one /tmp): it lives as long as the warm context does, from run to
// run of the same source, and is gone when the context is (a restart, an edit, an eviction).
// Its files hold at most TMP_MAX_BYTES in all; a write past that fails with ENOSPC, as on a
// full disk.
const { Buffer } = require("buffer");
const { fsError, argError, describe } = require("./errors.cjs");

const TMP_MAX_BYTES = 64 * 1024 * 1024;
const TREE = Symbol.for("tributary.fs.tmp");

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

/** An open descriptor: { node, path, pos, append, writable }. */
function fdOf(fd, syscall) {
  const open = state().fds.get(fd);
  if (!open) throw fsError("EBADF", syscall);
  return open;
}

module.exports = { state, newDir, contents, store, release, pathOf, segments, lookup, existing, fileForWrite, fileForRead, fdOf };
