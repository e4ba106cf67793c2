// Where a sandbox socket may connect, under the same rule as fetch (lib/net/net-guard.ts): loopback,
// private, special-purpose and this machine's own addresses only when the operator allowed that
// exact host:port (TRIBUTARY_FETCH_ALLOW). The name is resolved here once and the socket connects only to
// addresses that were checked, so a second answer (DNS rebinding, a TTL of 0) can't redirect it.
import { lookup as dnsLookup } from "node:dns/promises";
import { connect as netConnect, isIP, type LookupFunction, type Socket } from "node:net";
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from "node:tls";
import { isPrivateAddress } from "../../../lib/net/net-guard.ts";

export interface Address {
  address: string;
  family: 4 | 6;
}

export interface SocketTarget {
  /** every address the name gave, each checked, in the resolver's order */
  addresses: Address[];
  /** the name as asked (for TLS: SNI and the certificate's check) */
  host: string;
  port: number;
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const lookupAll: Lookup = (host) => dnsLookup(host, { all: true });

export function refused(what: string, address: string): Error {
  const e = new Error(`${what} resolves to a loopback or private address (${address}), which is not allowed (TRIBUTARY_FETCH_ALLOW lists the host:port an operator allows)`) as NodeJS.ErrnoException;
  e.code = "EADDRNOTALLOWED";
  return e;
}

/** The bare host (no IPv6 brackets), lower-cased as allow-list entries are compared. */
export function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, "").toLowerCase();
}

export async function socketTarget(rawHost: string, port: number, allow: readonly string[], lookup: Lookup = lookupAll): Promise<SocketTarget> {
  const host = bareHost(rawHost);
  if (!host) throw new TypeError("a socket needs a host to connect to");
  const allowed = allow.includes(`${host}:${port}`) || (host.includes(":") && allow.includes(`[${host}]:${port}`));
  const family = isIP(host);
  const found = family ? [{ address: host, family }] : await lookup(host);
  if (found.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  // every address is checked, not only the first: any of them may be the one connected to
  if (!allowed) {
    const bad = found.find((a) => isPrivateAddress(a.address));
    if (bad) throw refused(`${host}:${port}`, bad.address);
  }
  const addresses = found.map((a): Address => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  return { addresses, host, port };
}

/**
 * Connects to the target as Node does when a name has addresses of both families (autoSelectFamily:
 * each address in turn until one answers), its lookup answering only with the checked addresses.
 * With `tls`, TLS over it. Throws at once on options Node refuses (ciphers, a malformed key).
 */
export function openSocket(target: SocketTarget, tls?: ConnectionOptions): Socket | TLSSocket {
  const { addresses, port } = target;
  const checked: LookupFunction = (_host, options, callback) => {
    if (options.all) return callback(null, addresses);
    const first = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0];
    callback(null, first.address, first.family);
  };
  // a literal address needs no lookup (Node makes none for one)
  const host = addresses.length === 1 ? addresses[0].address : target.host;
  const at = { host, port, lookup: checked, autoSelectFamily: addresses.length > 1 };
  return tls ? tlsConnect({ ...tls, ...at }) : netConnect(at);
}

/** Whether the operator allowed `host` on some port: then its private addresses may be looked up. */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const h = bareHost(host);
  return allow.some((a) => a.slice(0, a.lastIndexOf(":")).replace(/^\[|\]$/g, "").toLowerCase() === h);
}

/** Refuses addresses a name gave that the sandbox may not know of (dns.lookup, dns.resolve4/6). */
export function checkAnswers(host: string, addresses: readonly string[], allow: readonly string[]): void {
  if (hostAllowed(host, allow)) return;
  const bad = addresses.find((a) => isPrivateAddress(a));
  if (bad) throw refused(host, bad);
}
