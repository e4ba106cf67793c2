// node:tls inside the sandbox, clients only: TLS is made by the runner (sandbox/sockets/socket-tls.ts),
// which verifies the server's certificate unless rejectUnauthorized is false, as Node does. Both
// ways of starting it work: tls.connect({host, port}) and tls.connect({socket}) on a connected
// net socket (STARTTLS, as pg and mysql2 do). Bundled into components.
import { Buffer } from "buffer";
import { Socket, connectArgs, isIP } from "./net.js";

export const DEFAULT_MIN_VERSION = "TLSv1.2";
export const DEFAULT_MAX_VERSION = "TLSv1.3";
export const DEFAULT_ECDH_CURVE = "auto";
export const rootCertificates = [];
export const getCiphers = () => ["tls_aes_128_gcm_sha256", "tls_aes_256_gcm_sha384", "tls_chacha20_poly1305_sha256"];

/** a secure context stands for its options, which the runner turns into a real one */
export function createSecureContext(options = {}) {
  return { context: {}, options: { ...options } };
}

function labelsMatch(pattern, host) {
  if (!pattern.startsWith("*.")) return pattern === host;
  const dot = host.indexOf(".");
  return dot > 0 && host.slice(dot + 1) === pattern.slice(2) && pattern.split(".").length > 2;
}

/** Node's check of a certificate's names against the host (subjectAltName, else the CN). */
export function checkServerIdentity(hostname, cert) {
  const host = String(hostname).toLowerCase().replace(/\.$/, "");
  const alt = String(cert?.subjectaltname ?? "").split(/,\s*/).filter(Boolean);
  const dns = alt.filter((s) => s.startsWith("DNS:")).map((s) => s.slice(4).toLowerCase());
  const ips = alt.filter((s) => s.startsWith("IP Address:")).map((s) => s.slice(11).toLowerCase());
  const cn = cert?.subject?.CN;
  const ok = isIP(host) ? ips.includes(host) : (dns.length > 0 ? dns : cn ? [String(cn).toLowerCase()] : []).some((p) => labelsMatch(p, host));
  if (ok) return undefined;
  const reason = `Host: ${hostname}. is not in the cert's altnames: ${cert?.subjectaltname ?? `CN=${cn}`}`;
  const e = new Error(`Hostname/IP does not match certificate's altnames: ${reason}`);
  Object.assign(e, { code: "ERR_TLS_CERT_ALTNAME_INVALID", reason, host: hostname, cert });
  return e;
}

function pem(x) {
  if (Array.isArray(x)) return x.map(pem);
  if (x instanceof Uint8Array) return new Uint8Array(x);
  return typeof x === "string" ? x : undefined;
}

/** what the runner needs of Node's options (functions and contexts don't cross over) */
function tlsRequest(options, host) {
  const o = { ...(options.secureContext?.options ?? {}), ...options };
  const own = typeof options.checkServerIdentity === "function" && options.checkServerIdentity !== checkServerIdentity;
  return {
    host,
    servername: typeof o.servername === "string" && o.servername ? o.servername : undefined,
    rejectUnauthorized: o.rejectUnauthorized !== false,
    ca: pem(o.ca),
    cert: pem(o.cert),
    key: pem(o.key),
    passphrase: typeof o.passphrase === "string" ? o.passphrase : undefined,
    ciphers: typeof o.ciphers === "string" ? o.ciphers : undefined,
    minVersion: o.minVersion,
    maxVersion: o.maxVersion,
    ALPNProtocols: Array.isArray(o.ALPNProtocols) ? o.ALPNProtocols.map(String) : undefined,
    // a component's own identity check runs here, after the handshake (TLSSocket._attach)
    checkIdentity: own ? false : undefined,
  };
}

export class TLSSocket extends Socket {
  constructor(socket, options = {}) {
    super(options);
    this.encrypted = true;
    this.authorized = false;
    this.authorizationError = undefined;
    this.alpnProtocol = false;
    this.servername = undefined;
    this._tls = {};
    this._tlsOptions = options;
    if (socket instanceof Socket) this._upgrade(socket, options.host ?? socket.remoteAddress ?? "localhost");
  }

  /**
   * STARTTLS: the plain socket's bytes go through TLS from now on; it goes quiet, as Node's does,
   * and closes when the TLS socket does (pg waits for the plain socket's 'close' to end a client)
   */
  _upgrade(plain, host) {
    this.once("close", () => plain.destroy());
    const go = () => {
      const id = plain._handleId;
      plain._handleId = undefined;
      plain._upgraded = true;
      this._open(["upgrade", id, tlsRequest(this._tlsOptions, host)], ["secureConnect"]);
    };
    if (plain._handleId !== undefined) go();
    else if (plain.connecting) plain.once("_open", go);
    else queueMicrotask(() => this.destroy(new Error("tls.connect: the socket to secure is not connected")));
  }

  _attach(info) {
    super._attach(info);
    this._tls = info;
    this.authorized = info.authorized === true;
    this.authorizationError = info.authorizationError;
    this.alpnProtocol = info.alpnProtocol ?? false;
    this.servername = this._tlsOptions.servername ?? (isIP(String(this._tlsOptions.host ?? "")) ? undefined : this._tlsOptions.host);
    const check = this._tlsOptions.checkServerIdentity;
    if (typeof check === "function" && check !== checkServerIdentity && this._tlsOptions.rejectUnauthorized !== false) {
      const err = check(this.servername ?? this._tlsOptions.host ?? "localhost", this.getPeerCertificate());
      if (err) this.destroy(err);
    }
  }

  getPeerCertificate() {
    const c = this._tls.peerCertificate;
    if (!c) return {};
    return { ...c, raw: c.raw ? Buffer.from(c.raw) : undefined };
  }
  getProtocol() {
    return this._tls.protocol ?? null;
  }
  getCipher() {
    return this._tls.cipher;
  }
  isSessionReused() {
    return false;
  }
  getSession() {
    return undefined;
  }
  getTLSTicket() {
    return undefined;
  }
  setServername(name) {
    this._tlsOptions = { ...this._tlsOptions, servername: name };
  }
  setMaxSendFragment() {
    return true;
  }
  exportKeyingMaterial() {
    throw new Error("exportKeyingMaterial is not available in the sandbox");
  }
}

/** tls.connect(options[, cb]) and tls.connect(port[, host][, options][, cb]) */
export function connect(...args) {
  const cb = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
  let options;
  if (args[0] !== null && typeof args[0] === "object") options = { ...args[0] };
  else {
    const extra = args.find((a, i) => i > 0 && a && typeof a === "object") ?? {};
    const [{ port, host }] = connectArgs(args.filter((a) => typeof a !== "object"));
    options = { ...extra, port, host: host ?? extra.host };
  }
  const socket = new TLSSocket(options.socket, options);
  if (cb) socket.once("secureConnect", cb);
  if (!options.socket) {
    const host = options.host ?? "localhost";
    if (options.timeout) socket.setTimeout(options.timeout);
    socket._open(["connect", { host, port: Number(options.port), tls: tlsRequest(options, host) }], ["connect", "secureConnect"]);
  }
  return socket;
}

export default { TLSSocket, connect, createSecureContext, checkServerIdentity, rootCertificates, getCiphers, DEFAULT_MIN_VERSION, DEFAULT_MAX_VERSION, DEFAULT_ECDH_CURVE };
