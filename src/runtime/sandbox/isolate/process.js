// Runs INSIDE the isolate: the `process` global, a stand-in for Node's. It says it is Node
// (packages branch on process.versions.node) because what they then reach for, Node's modules,
// is what bundles provide. `process.env` holds the owner's environment variables and nothing
// else: each invocation names their version, and brings their text (a JSON object's) only when
// this context has not seen that version (sandbox/instance.ts).
//
// There is one `process.env` object per context, for good: packages keep it
// (`const { env } = process` at their top level). Behind it, each invocation gets a fresh set of
// variables, so what one run wrote into it is gone in the next. The text of a version is parsed
// once, when a run first reads process.env (most runs never look), into `base`, which no run
// writes: a run's first write copies it. A user's variables may be megabytes, and parsing them at
// every run held the runner for most of a second.

const { parse } = JSON;
const then = Promise.prototype.then;
const { defineProperty, deleteProperty, get, getOwnPropertyDescriptor, has, ownKeys, set } = Reflect;

/** the version of the variables now (undefined: none), and their text until it is parsed */
let version;
let json;
/** the version's variables, parsed; never written */
let base = {};
/** this run's own copy once it wrote, else undefined (it reads `base`) */
let own;

function current() {
  if (own) return own;
  if (json !== undefined) {
    base = parse(json);
    json = undefined;
  }
  return base;
}

function write(fn) {
  if (!own) own = { ...current() };
  return fn(own);
}

// Node's process.env turns what is assigned into strings; so does this one.
const makeEnv = () =>
  new Proxy(
    {},
    {
      get: (_t, key) => get(current(), key),
      set: (_t, key, value) => write((v) => set(v, key, typeof key === "symbol" ? value : String(value))),
      has: (_t, key) => has(current(), key),
      deleteProperty: (_t, key) => write((v) => deleteProperty(v, key)),
      ownKeys: () => ownKeys(current()),
      getOwnPropertyDescriptor: (_t, key) => getOwnPropertyDescriptor(current(), key),
      defineProperty: (_t, key, desc) => write((v) => defineProperty(v, key, desc)),
    },
  );

/**
 * The variables of the invocation starting now (and of the top level, at install): `nextVersion`
 * names them, `nextJson` is their text, given only when this context does not have that version.
 */
export function setEnv(nextVersion, nextJson) {
  // whatever the last run wrote is gone
  own = undefined;
  if (nextJson !== undefined) {
    version = nextVersion;
    json = nextJson;
    return;
  }
  if (nextVersion === version) return;
  if (nextVersion !== undefined) throw new Error("process.env: the runner named variables this context does not have");
  version = undefined;
  json = undefined;
  base = {};
}

let proc;

/** The process object, made the first time code names it. */
export function processObject() {
  if (proc) return proc;
  const env = makeEnv();
  const noop = () => proc;
  const started = Date.now();
  const hrtime = (prev) => {
    const ms = Date.now();
    let s = Math.floor(ms / 1000);
    let ns = (ms % 1000) * 1e6;
    if (Array.isArray(prev)) {
      s -= prev[0];
      ns -= prev[1];
      if (ns < 0) {
        s -= 1;
        ns += 1e9;
      }
    }
    return [s, ns];
  };
  hrtime.bigint = () => BigInt(Date.now()) * 1000000n;
  proc = {
    // as the bundled stand-in before it (process/browser.js) said: packages that ask pick the
    // code paths that need no more of Node than the sandbox has
    title: "browser",
    version: "v24.0.0",
    versions: { node: "24.0.0" },
    platform: "linux",
    arch: "x64",
    release: { name: "node" },
    argv: [],
    execArgv: [],
    pid: 1,
    ppid: 0,
    exitCode: undefined,
    // one object for good (see above); replacing it replaces this run's variables
    get env() {
      return env;
    },
    set env(next) {
      own = { ...next };
    },
    // before promise callbacks, as in Node, as far as a microtask can be
    nextTick(fn, ...args) {
      if (typeof fn !== "function") throw new TypeError('The "callback" argument must be of type function');
      then.call(Promise.resolve(), () => fn(...args));
    },
    cwd: () => "/",
    chdir() {
      throw new Error("process.chdir is not supported in the sandbox");
    },
    umask: () => 0,
    hrtime,
    uptime: () => (Date.now() - started) / 1000,
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    emitWarning: (warning) => globalThis.console.warn(`Warning: ${warning instanceof Error ? warning.message : String(warning)}`),
    exit(code) {
      throw new Error(`process.exit(${code ?? ""}) is not available in the sandbox: return from run() instead`);
    },
    abort() {
      throw new Error("process.abort() is not available in the sandbox");
    },
    kill() {
      throw new Error("process.kill() is not available in the sandbox");
    },
    binding() {
      throw new Error("process.binding is not supported");
    },
    on: noop,
    addListener: noop,
    once: noop,
    off: noop,
    removeListener: noop,
    removeAllListeners: noop,
    prependListener: noop,
    prependOnceListener: noop,
    emit: () => false,
    listeners: () => [],
    listenerCount: () => 0,
    stdout: { write: (s) => void globalThis.console.log(String(s).replace(/\n$/, "")), isTTY: false },
    stderr: { write: (s) => void globalThis.console.error(String(s).replace(/\n$/, "")), isTTY: false },
    browser: true,
    // what Node's says to Object.prototype.toString ("[object process]"): axios before 1.7 picks
    // its http adapter by it, and has none to pick without it ("adapter is not a function")
    [Symbol.toStringTag]: "process",
  };
  return proc;
}
