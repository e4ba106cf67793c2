// Node's three forms of every call, made from the one synchronous call (path-calls.cjs,
// fd-calls.cjs) so they can't disagree: `readFileSync`, `readFile(…, cb)` and
// `promises.readFile`. A callback is called back on a later tick, never during the call, as in
// Node; a wrong argument still throws at the call. What no file here has (directory handles,
// file-system statistics) fails in all three forms, as a missing path.
const { fsError, argError, describe } = require("./errors.cjs");

const later = (fn) => (typeof globalThis.process?.nextTick === "function" ? globalThis.process.nextTick(fn) : queueMicrotask(fn));

/** fs and fs/promises from the synchronous calls; each starts with `constants`, as Node's. */
function callForms(sync, constants) {
  const fs = { constants };
  const promises = { constants: fs.constants };

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
    // descriptors are numbers only in fs; fs/promises has FileHandles instead (file-handle.cjs)
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
  // Node's exists calls back with a boolean alone, not (err, value)
  fs.exists = (path, cb) => {
    if (typeof cb === "function") later(() => cb(sync.exists(path)));
  };
  return { fs, promises };
}

module.exports = { callForms, later };
