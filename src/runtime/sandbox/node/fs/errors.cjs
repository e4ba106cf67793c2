// The errors the sandbox's fs throws, in Node's shape (code, errno, syscall, path, message):
// packages branch on them (`e.code === "ENOENT"` is how most check for a file), so every call
// reports a condition from this one table, with Node's numbers and words.

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

// a wrong argument: a TypeError with an ERR_ code, which the callback forms throw at the call
function argError(message, code = "ERR_INVALID_ARG_TYPE") {
  const e = new TypeError(message);
  e.code = code;
  return e;
}

function describe(v) {
  return v === null ? "null" : v === undefined ? "undefined" : `type ${typeof v}`;
}

module.exports = { fsError, argError, describe };
