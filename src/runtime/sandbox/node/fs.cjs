// node:fs for bundled packages. The sandbox has no files, so every path is one that isn't there,
// and each call fails the way Node fails on a missing file: a sync call throws, a callback gets
// the error, a promise rejects — with `code: "ENOENT"`, which packages check for (the AWS SDK
// reads ~/.aws/config if it exists and carries on when it doesn't). existsSync is false. Writes
// fail as on a read-only disk (EROFS). Streams and watchers, which no missing file can give, fail
// at once, as the other modules the sandbox doesn't have do.
const unavailable = require("./forbidden.cjs");

function fsError(code, syscall, path) {
  const what = code === "ENOENT" ? "no such file or directory" : "read-only file system";
  const e = new Error(`${code}: ${what}, ${syscall}${path === undefined ? "" : ` '${String(path)}'`}`);
  e.code = code;
  e.errno = code === "ENOENT" ? -2 : -30;
  e.syscall = syscall;
  if (path !== undefined) e.path = String(path);
  return e;
}

const READS = ["access", "stat", "lstat", "readFile", "readdir", "readlink", "realpath", "open", "opendir", "statfs"];
const WRITES = ["writeFile", "appendFile", "mkdir", "mkdtemp", "rm", "rmdir", "unlink", "rename", "copyFile", "cp", "symlink", "link", "chmod", "chown", "utimes", "truncate"];
const syscallOf = (name) => (name === "readFile" ? "open" : name === "writeFile" || name === "appendFile" ? "open" : name.toLowerCase());
const codeOf = (name) => (READS.includes(name) ? "ENOENT" : "EROFS");

const fs = { constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2 } };
const promises = { constants: fs.constants };
for (const name of [...READS, ...WRITES]) {
  const fail = (path) => fsError(codeOf(name), syscallOf(name), typeof path === "string" || path instanceof URL ? path : undefined);
  fs[`${name}Sync`] = (path) => {
    throw fail(path);
  };
  fs[name] = (path, ...rest) => {
    const cb = rest.findLast((a) => typeof a === "function");
    if (typeof cb !== "function") throw new TypeError('The "cb" argument must be of type function');
    const err = fail(path);
    queueMicrotask(() => cb(err));
  };
  promises[name] = async (path) => {
    throw fail(path);
  };
}
fs.existsSync = () => false;
fs.exists = (_path, cb) => {
  if (typeof cb === "function") queueMicrotask(() => cb(false));
};
for (const name of ["createReadStream", "createWriteStream", "watch", "watchFile"]) fs[name] = unavailable(`fs.${name}`);
// Classes packages test values against, as got does before each request (`body instanceof
// fs.ReadStream`): present, so the test is false rather than a TypeError, and never made.
for (const name of ["ReadStream", "WriteStream", "Stats", "Dirent", "FSWatcher", "StatWatcher"]) {
  fs[name] = {
    [name]: class {
      constructor() {
        throw new Error(`fs.${name} is not available in the sandbox`);
      }
    },
  }[name];
}
fs.promises = promises;

module.exports = fs;
