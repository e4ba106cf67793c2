import { isIP } from "node:net";

// Addresses as numbers, so that ranges and this machine's own addresses are compared on the
// address itself and never on one of its many spellings ([::ffff:127.0.0.1], [::ffff:7f00:1]...).

/** An IPv4 address (dotted, as isIP accepts it) as an unsigned 32-bit number. */
export function ipv4Number(ip: string): number {
  return ip.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** The 8 groups of an IPv6 address (any notation, including a dotted IPv4 tail), or undefined. */
export function ipv6Groups(ip: string): number[] | undefined {
  let v6 = ip.toLowerCase().split("%")[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (dotted) {
    if (isIP(dotted[1]) !== 4) return undefined;
    const n = ipv4Number(dotted[1]);
    v6 = v6.slice(0, -dotted[1].length) + `${Math.floor(n / 0x10000).toString(16)}:${(n % 0x10000).toString(16)}`;
  }
  const halves = v6.split("::");
  if (halves.length > 2) return undefined;
  const [head, tail] = halves.length === 2 ? halves : [v6, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array(Math.max(0, fill)).fill("0"), ...right].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** 8 groups as one 128-bit number. */
export function ipv6Number(groups: readonly number[]): bigint {
  return groups.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
}

/** Whether `address` lies in base/bits, for addresses of `width` bits (32 or 128). */
export function inPrefix(address: bigint, base: bigint, bits: number, width: 32 | 128): boolean {
  const shift = BigInt(width - bits);
  return address >> shift === base >> shift;
}

/**
 * The IPv4 address an IPv6 one carries, where the connection would in effect go to it: mapped
 * (::ffff:0:0/96), compatible (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). Such an address
 * is judged by its IPv4 address, whatever notation the URL used.
 */
export function embeddedIpv4(groups: readonly number[]): number | undefined {
  const g = groups;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => hi * 0x10000 + lo;
  if (zeros(5) && g[5] === 0xffff) return v4(g[6], g[7]);
  if (zeros(6)) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return undefined;
}
