// dns inside the sandbox (node/dns.js): lookups made by the runner. Addresses a name gives are
// under the sockets' rule: a name that points at loopback or a private network is refused unless
// the operator allowed that host on some port (TRIBUTARY_FETCH_ALLOW), so the sandbox can't map
// the machine's own network through DNS. Other records (MX, TXT, SRV...) are names and text.
import { lookup, Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { checkAnswers } from "./socket-target.ts";

const RRTYPES = new Set(["A", "AAAA", "ANY", "CAA", "CNAME", "MX", "NAPTR", "NS", "PTR", "SOA", "SRV", "TXT"]);
const TIMEOUT_MS = 5000;

/** [op, ...args] as node/dns.js sends them; resolves with what Node's dns/promises would. */
export async function sandboxDns(args: unknown[], allow: readonly string[]): Promise<unknown> {
  const [op, name, arg] = args;
  if (typeof name !== "string" || name.length === 0 || name.length > 253) throw new TypeError(`The "hostname" argument must be a non-empty string`);
  switch (op) {
    case "lookup": {
      const family = arg === 4 || arg === 6 ? arg : 0;
      const found = isIP(name) ? [{ address: name, family: isIP(name) }] : await lookup(name, { all: true, family });
      checkAnswers(name, found.map((a) => a.address), allow);
      return found;
    }
    case "resolve": {
      const rrtype = typeof arg === "string" ? arg.toUpperCase() : "A";
      if (!RRTYPES.has(rrtype)) throw new TypeError(`The "rrtype" argument must be one of ${[...RRTYPES].join(", ")}`);
      const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: 2 });
      const answer = (await resolver.resolve(name, rrtype)) as unknown;
      if (rrtype === "A" || rrtype === "AAAA") checkAnswers(name, answer as string[], allow);
      if (rrtype === "ANY") {
        const addresses = (answer as Array<{ type: string; address?: string }>).filter((r) => r.type === "A" || r.type === "AAAA").map((r) => r.address ?? "");
        checkAnswers(name, addresses, allow);
      }
      return answer;
    }
    case "reverse":
      return new Resolver({ timeout: TIMEOUT_MS, tries: 2 }).reverse(name);
    default:
      throw new TypeError(`unknown dns call "${String(op)}"`);
  }
}
