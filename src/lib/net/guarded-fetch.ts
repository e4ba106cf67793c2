import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { Agent, fetch as undiciFetch, request as undiciRequest, type Dispatcher, type RequestInit, type Response } from "undici";
import { assertFetchable, isPrivateAddress, type Resolve } from "./net-guard.ts";

// fetch for outbound requests made on users' behalf (sandbox fetch, webhooks, component_url and
// package downloads). assertFetchable checks where a host name points before the request; but
// fetch then resolved the name again to connect, and a name that answers with a public address
// to the first lookup and 127.0.0.1 to the second (DNS rebinding, a TTL of 0) got through. Here
// the check is made on the very addresses the connection is made to: undici's connector calls
// this lookup, and an answer with a loopback or private address fails the connection.
// (undici, the package: Node's own fetch takes no connector of ours.)

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const refused = new Error(`${hostname} resolves to a loopback or private address (${bad.address}), which is not allowed`) as NodeJS.ErrnoException;
      refused.code = "EADDRNOTALLOWED";
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}

/** the dispatcher whose connections go only to public addresses */
export const publicOnly = new Agent({ connect: { lookup: checkedLookup } });

/**
 * fetch(url, init) for a URL that passes the address guard: checked before (for a clear error),
 * and again on the addresses the connection is made to, unless the operator allowed that exact
 * host:port (TRIBUTARY_FETCH_ALLOW), which may then be private. Redirects are the caller's: pass
 * `redirect: "manual"` and call this again for each hop.
 */
export async function guardedFetch(url: URL, init: RequestInit, allow: readonly string[], resolve?: Resolve): Promise<Response> {
  // the name's lookup is under the request's deadline too: a DNS server that never answers must
  // not hold a webhook delivery (or a run) past its timeout
  return fetchChecked(url, init, await untilAborted(assertFetchable(url, allow, resolve), init.signal ?? undefined));
}

export interface GuardedRequestInit {
  method: string;
  /** name, value pairs; a name may come more than once */
  headers: [string, string][];
  body?: string | Uint8Array;
  signal: AbortSignal;
}

/**
 * The same guard for undici's request(): no WHATWG Request, Response and Headers made and read
 * back on this side, a third of fetch's CPU per request (measured: 39-61 against 140-176 µs,
 * client and server, on loopback). Its body is the raw one (no content decoding) and no header is
 * added. A connection's failure is a TypeError "fetch failed" whose cause says why, as fetch's.
 */
export async function guardedRequest(url: URL, init: GuardedRequestInit, allow: readonly string[], resolve?: Resolve): Promise<Dispatcher.ResponseData> {
  const allowed = await untilAborted(assertFetchable(url, allow, resolve), init.signal);
  try {
    return await undiciRequest(url, {
      method: init.method as Dispatcher.HttpMethod,
      headers: init.headers.flat(),
      body: init.body,
      signal: init.signal,
      ...(allowed ? {} : { dispatcher: publicOnly }),
    });
  } catch (e) {
    if (init.signal.aborted) throw init.signal.reason as Error;
    throw new TypeError("fetch failed", { cause: e });
  }
}

/** `work`, or the signal's reason once it is aborted, whichever comes first */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e as Error);
      },
    );
  });
}

/** the same, for a URL the caller has passed through assertFetchable already (`allowed`: its answer) */
export function fetchChecked(url: URL, init: RequestInit, allowed: boolean): Promise<Response> {
  return undiciFetch(url, allowed ? init : { ...init, dispatcher: publicOnly });
}
