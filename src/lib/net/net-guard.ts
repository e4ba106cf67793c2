import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

// Outbound requests made for users (component_url and package fetches, sandbox fetch, webhooks:
// all through guarded-fetch.ts) must not reach this machine or its private network unless the
// operator allowed that exact host:port (TRIBUTARY_FETCH_ALLOW).

function ipv4Private(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** The 8 groups of an IPv6 address (any notation, including a dotted IPv4 tail), or undefined. */
function ipv6Groups(ip: string): number[] | undefined {
  let v6 = ip.toLowerCase().split("%")[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    v6 = v6.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = v6.includes("::") ? v6.split("::") : [v6, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array(Math.max(0, fill)).fill("0"), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

const v4From = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) return ipv4Private(ip);
  const g = ipv6Groups(ip);
  // unparseable: refuse rather than guess
  if (!g) return true;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  // IPv4 inside IPv6 (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16)
  // is judged by its IPv4 address, whatever notation the URL used.
  if (zeros(5) && g[5] === 0xffff) return ipv4Private(v4From(g[6], g[7]));
  if (zeros(6)) return g[6] === 0 && g[7] <= 1 ? true : ipv4Private(v4From(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Private(v4From(g[6], g[7]));
  if (g[0] === 0x2002) return ipv4Private(v4From(g[1], g[2]));
  const first = g[0];
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 // multicast ff00::/8
  );
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
  if (allow.includes(`${host}:${defaultPort(url)}`)) return true;
  const addresses = isIP(host) ? [{ address: host }] : await resolve(host);
  for (const { address } of addresses) {
    if (isPrivateAddress(address)) {
      throw new Error(`${url.host} resolves to a loopback or private address (${address}), which is not allowed`);
    }
  }
  return false;
}
