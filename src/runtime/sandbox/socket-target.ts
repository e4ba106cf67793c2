// Where a sandbox socket may connect, under the same rule as fetch (lib/net-guard.ts): loopback,
// private and link-local addresses only when the operator allowed that exact host:port
// (TRIBUTARY_FETCH_ALLOW). The name is resolved here once and the socket connects to the very
// address that was checked, so a second answer (DNS rebinding, a TTL of 0) can't redirect it.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPrivateAddress } from "../../lib/net-guard.ts";

export interface SocketTarget {
  /** the checked address to connect to */
  address: string;
  family: 4 | 6;
  /** the name as asked (for TLS: SNI and the certificate's check) */
  host: string;
  port: number;
}

function refused(what: string, address: string): Error {
  const e = new Error(`${what} resolves to a loopback or private address (${address}), which is not allowed (TRIBUTARY_FETCH_ALLOW lists the host:port an operator allows)`) as NodeJS.ErrnoException;
  e.code = "EADDRNOTALLOWED";
  return e;
}

/** The bare host (no IPv6 brackets), lower-cased as allow-list entries are compared. */
export function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, "").toLowerCase();
}

export async function socketTarget(rawHost: string, port: number, allow: readonly string[]): Promise<SocketTarget> {
  const host = bareHost(rawHost);
  if (!host) throw new TypeError("a socket needs a host to connect to");
  const allowed = allow.includes(`${host}:${port}`) || (host.includes(":") && allow.includes(`[${host}]:${port}`));
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await lookup(host, { all: true });
  if (addresses.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  if (!allowed) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) throw refused(`${host}:${port}`, bad.address);
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4, host, port };
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
