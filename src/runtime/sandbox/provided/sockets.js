// Source of the "tributary:sockets" module inside the isolate: the door to the runner's sockets
// and DNS (sandbox/sockets/sockets.ts) for node/net.js, tls.js and dns.js, which build Node's modules on it,
// and to what node/crypto-*.js need of the runner's node:crypto (SSH clients need both).
// Everything it carries is checked by the runner (the address guard, the caps).
const { call, callAsync } = globalThis.__tributaryHost;

/** a call the runner answers later: connect, upgrade, read, drain, dns */
export function ask(...args) {
  return callAsync("socket", ...args);
}

/** a call answered at once: write, end, destroy, noDelay, keepAlive */
export function now(...args) {
  return call("socket", ...args);
}

/** node:crypto's ciphers, held by the runner for the invocation (sandbox/crypto/ciphers.ts) */
export function cipher(...args) {
  return call("socket", "cipher", ...args);
}

/** node:crypto's keys, signatures and key agreement, computed by the runner (sandbox/crypto/keys.ts) */
export function cryptoOp(...args) {
  return call("cryptoOp", ...args);
}
