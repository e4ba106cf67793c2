import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { embeddedIpv4, ipv4Number, ipv6Groups } from "./ip-address.ts";
import { isOwnIpv4, isOwnIpv6 } from "./host-addresses.ts";
import { isSpecialIpv4, isSpecialIpv6 } from "./special-ranges.ts";

// Outbound requests made for users (component_url and package fetches, sandbox fetch, webhooks,
// $.send.http: all through guarded-fetch.ts; sandbox sockets and DNS: runtime/sandbox/sockets/)
// must not reach this machine or its private network unless the operator allowed that exact
// host:port (TRIBUTARY_FETCH_ALLOW). Every one of them asks isPrivateAddress.

const refusedIpv4 = (address: number) => isSpecialIpv4(address) || isOwnIpv4(address);

/**
 * Whether an address must be refused: loopback, private, link-local or any other special-purpose
 * range (special-ranges.ts), or one of this machine's own addresses (host-addresses.ts).
 */
export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) return refusedIpv4(ipv4Number(ip));
  const groups = ipv6Groups(ip);
  // unparseable: refuse rather than guess
  if (!groups) return true;
  const carried = embeddedIpv4(groups);
  if (carried !== undefined) return refusedIpv4(carried);
  return isSpecialIpv6(groups) || isOwnIpv6(groups);
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/**
 * Throws a plain Error whose message says why the URL may not be fetched; true when the operator
 * allowed its exact host:port (which may then be private), false when it passed the check.
 * (guarded-fetch.ts checks again on the addresses it connects to.)
 */
export type Resolve = (host: string) => Promise<{ address: string }[]>;

const systemResolve: Resolve = (host) => lookup(host, { all: true });

export async function assertFetchable(url: URL, allow: readonly string[], resolve: Resolve = systemResolve): Promise<boolean> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`only http and https URLs can be fetched, not ${url.protocol}`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // an IPv6 host may be listed with or without brackets, as the sandbox's sockets take it
  const port = defaultPort(url);
  if (allow.includes(`${host}:${port}`) || (host.includes(":") && allow.includes(`[${host}]:${port}`))) return true;
  const addresses = isIP(host) ? [{ address: host }] : await resolve(host);
  for (const { address } of addresses) {
    if (isPrivateAddress(address)) {
      throw new Error(`${url.host} resolves to a loopback or private address (${address}), which is not allowed`);
    }
  }
  return false;
}
