// dns inside the sandbox (node/dns.js): queries made by the runner, under the sockets' rule so the
// sandbox can't map the machine's own network through DNS: an address on loopback or a private
// network is refused wherever it shows up (a name's addresses, a reverse lookup or PTR name, a
// record's target host) unless the operator allowed that host on some port (TRIBUTARY_FETCH_ALLOW).
// A name that itself points at the private network is not asked about at all (its TXT, SRV...).
import { lookup, Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { isPrivateAddress } from "../../../lib/net/net-guard.ts";
import { checkAnswers, hostAllowed, refused } from "./socket-target.ts";

const RRTYPES = new Set(["A", "AAAA", "ANY", "CAA", "CNAME", "MX", "NAPTR", "NS", "PTR", "SOA", "SRV", "TXT"]);
const TIMEOUT_MS = 5000;
/** the most target hosts of one answer looked up to check them; an answer naming more is refused */
const MAX_TARGETS = 8;

/** what the runner asks DNS (a test gives its own) */
export interface DnsClient {
  resolve(name: string, rrtype: string): Promise<unknown>;
  reverse(ip: string): Promise<string[]>;
  lookup(name: string, family?: 0 | 4 | 6): Promise<Array<{ address: string; family: number }>>;
}

const resolver = () => new Resolver({ timeout: TIMEOUT_MS, tries: 2 });
const system: DnsClient = {
  resolve: (name, rrtype) => resolver().resolve(name, rrtype),
  reverse: (ip) => resolver().reverse(ip),
  lookup: (name, family = 0) => lookup(name, { all: true, family }),
};

/** The address a reverse name (in-addr.arpa, ip6.arpa) stands for; undefined for any other name. */
export function arpaAddress(name: string): string | undefined {
  const n = name.toLowerCase().replace(/\.$/, "");
  let v: RegExpExecArray | null;
  if ((v = /^(.*)\.in-addr\.arpa$/.exec(n))) {
    const octets = v[1].split(".").reverse();
    const ok = octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
    return ok ? octets.map(Number).join(".") : "";
  }
  if ((v = /^(.*)\.ip6\.arpa$/.exec(n))) {
    const nibbles = v[1].split(".").reverse();
    if (nibbles.length !== 32 || !nibbles.every((x) => /^[0-9a-f]$/.test(x))) return "";
    return Array.from({ length: 8 }, (_, i) => nibbles.slice(i * 4, i * 4 + 4).join("")).join(":");
  }
  if (n === "in-addr.arpa" || n === "ip6.arpa") return "";
  return undefined;
}

/** Refuses a private address unless that host is allowed; "" (a partial reverse name) is refused. */
function checkAddress(what: string, address: string, allow: readonly string[]): void {
  if (address === "") {
    throw Object.assign(new Error(`${what}: reverse names of partial addresses are not answered in the sandbox`), { code: "EADDRNOTALLOWED" });
  }
  if (isPrivateAddress(address) && !hostAllowed(address, allow)) throw refused(what, address);
}

/** The host names and addresses an answer points at (targets of CNAME, MX, NS, SRV, PTR...). */
function targetsOf(rrtype: string, answer: unknown): string[] {
  const records = Array.isArray(answer) ? answer : [answer];
  const field = (r: unknown, k: string) => (typeof r === "object" && r !== null && typeof (r as Record<string, unknown>)[k] === "string" ? [(r as Record<string, string>)[k]] : []);
  return records.flatMap((r): string[] => {
    if (typeof r === "string") return rrtype === "CNAME" || rrtype === "NS" || rrtype === "PTR" ? [r] : [];
    const type = rrtype === "ANY" ? String((r as { type?: unknown })?.type ?? "") : rrtype;
    if (type === "CNAME" || type === "NS" || type === "PTR") return field(r, "value");
    if (type === "MX") return field(r, "exchange");
    if (type === "SRV") return field(r, "name");
    if (type === "NAPTR") return field(r, "replacement").filter((x) => x !== "" && x !== ".");
    if (type === "SOA") return field(r, "nsname");
    return [];
  });
}

/** Every target host of an answer: an address is checked as one, a name by its own addresses. */
async function checkTargets(targets: string[], allow: readonly string[], dns: DnsClient): Promise<void> {
  const names = [...new Set(targets.map((t) => t.toLowerCase().replace(/\.$/, "")))];
  if (names.length > MAX_TARGETS) throw Object.assign(new Error(`an answer naming more than ${MAX_TARGETS} hosts is not answered in the sandbox`), { code: "EADDRNOTALLOWED" });
  await Promise.all(names.map((name) => checkName(name, allow, dns)));
}

/** Refuses a name that is (or points at) a private address; a name that doesn't resolve passes. */
async function checkName(name: string, allow: readonly string[], dns: DnsClient): Promise<void> {
  if (isIP(name)) return checkAddress(name, name, allow);
  const arpa = arpaAddress(name);
  if (arpa !== undefined) return checkAddress(name, arpa, allow);
  if (hostAllowed(name, allow)) return;
  const found = await dns.lookup(name).catch(() => []);
  checkAnswers(name, found.map((a) => a.address), allow);
}

/** [op, ...args] as node/dns.js sends them; resolves with what Node's dns/promises would. */
export async function sandboxDns(args: unknown[], allow: readonly string[], dns: DnsClient = system): Promise<unknown> {
  const [op, name, arg] = args;
  if (typeof name !== "string" || name.length === 0 || name.length > 253) throw new TypeError(`The "hostname" argument must be a non-empty string`);
  switch (op) {
    case "lookup": {
      const family = arg === 4 || arg === 6 ? arg : 0;
      const found = isIP(name) ? [{ address: name, family: isIP(name) }] : await dns.lookup(name, family);
      checkAnswers(name, found.map((a) => a.address), allow);
      return found;
    }
    case "resolve": {
      const rrtype = typeof arg === "string" ? arg.toUpperCase() : "A";
      if (!RRTYPES.has(rrtype)) throw new TypeError(`The "rrtype" argument must be one of ${[...RRTYPES].join(", ")}`);
      // the name asked about first: one on the private network says nothing of any kind (an
      // A or AAAA answer is its addresses, checked below)
      if (rrtype !== "A" && rrtype !== "AAAA") await checkName(name, allow, dns);
      const answer = await dns.resolve(name, rrtype);
      if (rrtype === "A" || rrtype === "AAAA") checkAnswers(name, answer as string[], allow);
      if (rrtype === "ANY") {
        const addresses = (answer as Array<{ type: string; address?: string }>).filter((r) => r.type === "A" || r.type === "AAAA").map((r) => r.address ?? "");
        checkAnswers(name, addresses, allow);
      }
      await checkTargets(targetsOf(rrtype, answer), allow, dns);
      return answer;
    }
    case "reverse": {
      if (!isIP(name)) throw Object.assign(new TypeError(`getHostByAddr EINVAL ${name}`), { code: "EINVAL" });
      checkAddress(name, name, allow);
      const names = await dns.reverse(name);
      await checkTargets(names, allow, dns);
      return names;
    }
    default:
      throw new TypeError(`unknown dns call "${String(op)}"`);
  }
}
