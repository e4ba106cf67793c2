// node:dns inside the sandbox: the callback API over dns/promises (dns-promises.js), whose queries
// the runner makes under the address guard. Bundled into components.
import * as p from "./dns-promises.js";

export const promises = p.default;
export const ADDRCONFIG = 1024;
export const V4MAPPED = 2048;
export const ALL = 256;
export const NODATA = "ENODATA";
export const NOTFOUND = "ENOTFOUND";
export const SERVFAIL = "ESERVFAIL";
export const TIMEOUT = "ETIMEOUT";
export const CONNREFUSED = "ECONNREFUSED";

function callbackOf(args) {
  const cb = args[args.length - 1];
  if (typeof cb !== "function") throw new TypeError('The "callback" argument must be of type function');
  return cb;
}

export function lookup(hostname, options, callback) {
  const cb = callbackOf([options, callback].filter((x) => x !== undefined));
  const o = typeof options === "function" ? {} : typeof options === "number" ? { family: options } : (options ?? {});
  p.lookup(hostname, { ...o, all: true }).then(
    (all) => (o.all ? cb(null, all) : cb(null, all[0]?.address, all[0]?.family)),
    (e) => cb(e),
  );
}

function callbacked(fn) {
  return (...args) => {
    const cb = callbackOf(args);
    fn(...args.slice(0, -1)).then((v) => cb(null, v), (e) => cb(e));
  };
}

export const resolve = callbacked(p.resolve);
export const resolve4 = callbacked(p.resolve4);
export const resolve6 = callbacked(p.resolve6);
export const resolveAny = callbacked(p.resolveAny);
export const resolveCaa = callbacked(p.resolveCaa);
export const resolveCname = callbacked(p.resolveCname);
export const resolveMx = callbacked(p.resolveMx);
export const resolveNaptr = callbacked(p.resolveNaptr);
export const resolveNs = callbacked(p.resolveNs);
export const resolvePtr = callbacked(p.resolvePtr);
export const resolveSoa = callbacked(p.resolveSoa);
export const resolveSrv = callbacked(p.resolveSrv);
export const resolveTxt = callbacked(p.resolveTxt);
export const reverse = callbacked(p.reverse);

export class Resolver extends p.Resolver {}
for (const k of ["resolve", "resolve4", "resolve6", "resolveAny", "resolveCaa", "resolveCname", "resolveMx", "resolveNaptr", "resolveNs", "resolvePtr", "resolveSoa", "resolveSrv", "resolveTxt", "reverse"]) {
  Resolver.prototype[k] = callbacked(p[k]);
}

export const getServers = p.getServers;
export const setServers = p.setServers;
export const setDefaultResultOrder = p.setDefaultResultOrder;
export const getDefaultResultOrder = p.getDefaultResultOrder;

export default {
  lookup, resolve, resolve4, resolve6, resolveAny, resolveCaa, resolveCname, resolveMx, resolveNaptr, resolveNs, resolvePtr, resolveSoa, resolveSrv, resolveTxt, reverse,
  Resolver, promises, getServers, setServers, setDefaultResultOrder, getDefaultResultOrder, ADDRCONFIG, V4MAPPED, ALL, NODATA, NOTFOUND, SERVFAIL, TIMEOUT, CONNREFUSED,
};
