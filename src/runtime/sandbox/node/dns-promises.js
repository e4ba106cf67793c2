// node:dns/promises inside the sandbox: queries made by the runner (sandbox/sockets/dns.ts), where
// a name pointing at loopback or a private network is refused unless the operator allowed that
// host (TRIBUTARY_FETCH_ALLOW). Bundled into components.
import { ask } from "tributary:sockets";
import { socketError } from "./net.js";

async function query(op, hostname, arg) {
  const r = await ask("dns", op, String(hostname), arg);
  if (r.error) {
    const e = socketError(r.error);
    e.hostname = String(hostname);
    throw e;
  }
  return r.value;
}

export async function lookup(hostname, options = {}) {
  const o = typeof options === "number" ? { family: options } : (options ?? {});
  const family = o.family === "IPv4" ? 4 : o.family === "IPv6" ? 6 : Number(o.family) || 0;
  const all = await query("lookup", hostname, family);
  return o.all ? all : all[0];
}

export const resolve = (hostname, rrtype = "A") => query("resolve", hostname, rrtype);
export const resolve4 = (hostname) => resolve(hostname, "A");
export const resolve6 = (hostname) => resolve(hostname, "AAAA");
export const resolveAny = (hostname) => resolve(hostname, "ANY");
export const resolveCaa = (hostname) => resolve(hostname, "CAA");
export const resolveCname = (hostname) => resolve(hostname, "CNAME");
export const resolveMx = (hostname) => resolve(hostname, "MX");
export const resolveNaptr = (hostname) => resolve(hostname, "NAPTR");
export const resolveNs = (hostname) => resolve(hostname, "NS");
export const resolvePtr = (hostname) => resolve(hostname, "PTR");
export const resolveSoa = (hostname) => resolve(hostname, "SOA");
export const resolveSrv = (hostname) => resolve(hostname, "SRV");
export const resolveTxt = (hostname) => resolve(hostname, "TXT");
export const reverse = (ip) => query("reverse", ip);

export class Resolver {
  cancel() {}
  setServers() {}
  getServers() {
    return [];
  }
  setLocalAddress() {}
}
for (const [k, fn] of Object.entries({ resolve, resolve4, resolve6, resolveAny, resolveCaa, resolveCname, resolveMx, resolveNaptr, resolveNs, resolvePtr, resolveSoa, resolveSrv, resolveTxt, reverse })) {
  Resolver.prototype[k] = fn;
}

export const getServers = () => [];
export const setServers = () => {};
export const setDefaultResultOrder = () => {};
export const getDefaultResultOrder = () => "verbatim";

export default { lookup, resolve, resolve4, resolve6, resolveAny, resolveCaa, resolveCname, resolveMx, resolveNaptr, resolveNs, resolvePtr, resolveSoa, resolveSrv, resolveTxt, reverse, Resolver, getServers, setServers, setDefaultResultOrder, getDefaultResultOrder };
