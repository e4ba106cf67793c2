import { networkInterfaces } from "node:os";
import { embeddedIpv4, ipv4Number, ipv6Groups, ipv6Number } from "./ip-address.ts";

// This machine's own addresses, whatever range they are in: a listener bound to 0.0.0.0 (or ::)
// answers on each of them, so a public-looking interface address reaches this host as loopback
// would. Each process that checks addresses (the service, and the runner, a child process of its
// own) reads its interfaces itself, so both see the same list without passing it along.
//
// When to read: a read (getifaddrs) costs some tens of microseconds, and checks are made per
// connection and per DNS answer, never in a tight loop. So the list is read on a check once the
// last read is older than REREAD_MS: a burst of checks (every address of an answer) costs one
// read, an address that appears (DHCP, a VPN coming up) is refused within REREAD_MS, and there is
// no timer to keep alive or stop.
const REREAD_MS = 1000;

let readAt = -Infinity;
let ownV4 = new Set<number>();
let ownV6 = new Set<bigint>();

function reread(): void {
  let interfaces: ReturnType<typeof networkInterfaces>;
  try {
    interfaces = networkInterfaces();
  } catch {
    // the system refused to list them (rare; the runner's permission model allows it): keep the
    // last list rather than refuse every request, and ask again on the next check
    return;
  }
  const v4 = new Set<number>();
  const v6 = new Set<bigint>();
  for (const info of Object.values(interfaces).flat()) {
    if (!info) continue;
    if (info.family === "IPv4") v4.add(ipv4Number(info.address));
    const groups = info.family === "IPv6" ? ipv6Groups(info.address) : undefined;
    if (!groups) continue;
    // an interface's IPv6 address that carries an IPv4 one is reached through either
    const carried = embeddedIpv4(groups);
    if (carried !== undefined) v4.add(carried);
    v6.add(ipv6Number(groups));
  }
  ownV4 = v4;
  ownV6 = v6;
  readAt = performance.now();
}

function fresh(): void {
  if (performance.now() - readAt >= REREAD_MS) reread();
}

/** Whether an IPv4 address (as ip-address.ts's number) is one of this machine's own. */
export function isOwnIpv4(address: number): boolean {
  fresh();
  return ownV4.has(address);
}

/** Whether an IPv6 address (its 8 groups) is one of this machine's own. */
export function isOwnIpv6(groups: readonly number[]): boolean {
  fresh();
  return ownV6.has(ipv6Number(groups));
}
