// The TLS options a sandbox socket may ask for, taken from what the isolate sent (untrusted: only
// known fields of the right types pass), and what the sandbox learns of a secured connection.
import { isIP } from "node:net";
import type { ConnectionOptions, PeerCertificate, TLSSocket } from "node:tls";

type Pem = string | Uint8Array;

function pem(x: unknown): Pem | Pem[] | undefined {
  const one = (v: unknown) => (typeof v === "string" || v instanceof Uint8Array ? v : undefined);
  if (Array.isArray(x)) {
    const all = x.map(one).filter((v): v is Pem => v !== undefined);
    return all.length > 0 ? all : undefined;
  }
  return one(x);
}

const str = (x: unknown) => (typeof x === "string" ? x : undefined);
const VERSIONS = new Set(["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]);

/** Node's TLS options for connecting to `host` (the name asked for, not the address connected to). */
export function tlsOptions(raw: unknown, host: string): ConnectionOptions {
  const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const servername = str(o.servername) ?? (isIP(host) ? undefined : host);
  const out: ConnectionOptions = {
    // verified unless the component said otherwise, as Node does
    rejectUnauthorized: o.rejectUnauthorized !== false,
    ...(servername ? { servername } : {}),
  };
  const ca = pem(o.ca);
  const cert = pem(o.cert);
  const key = pem(o.key);
  if (ca) out.ca = ca as ConnectionOptions["ca"];
  if (cert) out.cert = cert as ConnectionOptions["cert"];
  if (key) out.key = key as ConnectionOptions["key"];
  if (str(o.passphrase)) out.passphrase = str(o.passphrase);
  if (str(o.ciphers)) out.ciphers = str(o.ciphers);
  if (VERSIONS.has(str(o.minVersion) ?? "")) out.minVersion = o.minVersion as ConnectionOptions["minVersion"];
  if (VERSIONS.has(str(o.maxVersion) ?? "")) out.maxVersion = o.maxVersion as ConnectionOptions["maxVersion"];
  if (Array.isArray(o.ALPNProtocols)) out.ALPNProtocols = o.ALPNProtocols.filter((p): p is string => typeof p === "string").slice(0, 16);
  // The component's own checkServerIdentity (a function, which can't cross over) runs in the
  // sandbox after the handshake (node/tls.js); here the name check is then left to it.
  if (o.checkIdentity === false) out.checkServerIdentity = () => undefined;
  // The name the certificate is checked against when there is no SNI (an IP address).
  out.host = host;
  return out;
}

/** the parts of a peer certificate components look at (checkServerIdentity's, and logging's) */
export function certificateOf(cert: PeerCertificate | undefined): Record<string, unknown> | undefined {
  if (!cert || Object.keys(cert).length === 0) return undefined;
  return {
    subject: { ...cert.subject },
    issuer: { ...cert.issuer },
    subjectaltname: cert.subjectaltname,
    valid_from: cert.valid_from,
    valid_to: cert.valid_to,
    serialNumber: cert.serialNumber,
    fingerprint: cert.fingerprint,
    fingerprint256: cert.fingerprint256,
  };
}

export function tlsInfo(s: TLSSocket): Record<string, unknown> {
  return {
    authorized: s.authorized,
    authorizationError: s.authorizationError ? String(s.authorizationError) : undefined,
    alpnProtocol: s.alpnProtocol || false,
    protocol: s.getProtocol(),
    cipher: s.getCipher(),
    peerCertificate: certificateOf(s.getPeerCertificate()),
    sessionReused: s.isSessionReused(),
  };
}
