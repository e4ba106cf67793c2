import { inPrefix, ipv4Number, ipv6Groups, ipv6Number } from "./ip-address.ts";

// The address ranges no request made for a user may reach: this machine, its private networks,
// and every other special-purpose range (IANA's IPv4 and IPv6 Special-Purpose Address Registries,
// plus multicast and the reserved space). The few registry entries marked globally reachable
// (AS112 DNS, AMT relays, anycast PCP and TURN) are refused with the rest: no component has a
// reason to call them, and one rule for a whole block leaves no sub-block to get wrong.

type Range = readonly [base: string, bits: number];

const IPV4: readonly Range[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments (DS-Lite, NAT64 discovery...)
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.31.196.0", 24], // AS112
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // AS112 direct delegation
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the limited broadcast 255.255.255.255
];

// Only 2000::/3 is global unicast; all else is refused whole (see isSpecialIpv6). These are the
// special-purpose blocks inside it. (6to4, 2002::/16, is judged by the IPv4 address it carries.)
const IPV6_GLOBAL: readonly Range[] = [
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID, AMT, AS112, DRIP...)
  ["2001:db8::", 32], // documentation
  ["2620:4f:8000::", 48], // AS112 direct delegation
  ["3fff::", 20], // documentation
];

const v4Ranges = IPV4.map(([base, bits]) => [BigInt(ipv4Number(base)), bits] as const);
const v6Ranges = IPV6_GLOBAL.map(([base, bits]) => [ipv6Number(ipv6Groups(base)!), bits] as const);

/** Whether an IPv4 address (as ip-address.ts's number) lies in a special-purpose range. */
export function isSpecialIpv4(address: number): boolean {
  const n = BigInt(address);
  return v4Ranges.some(([base, bits]) => inPrefix(n, base, bits, 32));
}

/**
 * Whether an IPv6 address (its 8 groups; IPv4-carrying forms already judged by their IPv4
 * address) is special-purpose. Everything outside 2000::/3 is: loopback ::1, unspecified ::,
 * discard-only 100::/64, local-use NAT64 64:ff9b:1::/48, SRv6 5f00::/16, unique local fc00::/7,
 * link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, and space IANA has not assigned.
 */
export function isSpecialIpv6(groups: readonly number[]): boolean {
  if ((groups[0] & 0xe000) !== 0x2000) return true;
  const n = ipv6Number(groups);
  return v6Ranges.some(([base, bits]) => inPrefix(n, base, bits, 128));
}
