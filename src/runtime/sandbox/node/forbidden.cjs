// Stands in for a Node module the sandbox does not have (child_process, worker_threads...) when a
// package imports it: the package loads, and only calling into the module fails, with a clear
// message. A component that imports such a module itself is refused at save instead.
// CommonJS, because that is how packages reach these modules: require("child_process").spawn.
// Every property is itself such a stand-in (fs.watch, dns.promises.lookup), and the common names
// are listed, so named imports of them (import { spawn } from "child_process") find something.
const NAMES = {
  net: ["createConnection", "connect", "createServer", "Socket", "Server", "isIP", "isIPv4", "isIPv6"],
  tls: ["connect", "createSecureContext", "TLSSocket", "rootCertificates"],
  child_process: ["spawn", "exec", "execSync", "execFile", "fork", "spawnSync"],
  worker_threads: ["Worker", "isMainThread", "parentPort", "workerData"],
  dns: ["lookup", "resolve", "promises"],
  // got 12+ imports these by name (\`destination instanceof Http2ServerResponse\`, http2.constants)
  http2: ["connect", "constants", "createServer", "createSecureServer", "Http2ServerRequest", "Http2ServerResponse", "getDefaultSettings", "getPackedSettings", "getUnpackedSettings", "sensitiveHeaders"],
};

function forbidden(name, keys) {
  // a plain function, so that packages may also extend it (class Client extends net.Socket)
  const fail = function unavailable() {
    throw new Error(`${name} is not available in the sandbox`);
  };
  const own = ["length", "name", "prototype"];
  return new Proxy(fail, {
    get: (t, prop) => {
      if (prop === "__esModule") return false;
      if (prop === "prototype") return t.prototype;
      if (prop === "then" || typeof prop === "symbol") return undefined;
      return forbidden(`${name}.${String(prop)}`, []);
    },
    has: (_t, prop) => keys.includes(prop),
    ownKeys: () => [...keys, ...own],
    getOwnPropertyDescriptor: (t, prop) =>
      own.includes(prop)
        ? Reflect.getOwnPropertyDescriptor(t, prop)
        : keys.includes(prop)
          ? { configurable: true, enumerable: true, value: forbidden(`${name}.${String(prop)}`, []) }
          : undefined,
  });
}

module.exports = (name) => forbidden(name, NAMES[name.replace(/\/promises$/, "")] ?? []);
