// An invocation's use of its data stores (`data_store` props, workflows §6), on the runner's side.
// Writes are kept here, in call order, and handed to the host with the result, which commits them
// with the invocation (a workflow step's end); reads see the store's committed state (asked of the
// host) with this invocation's own writes laid over it. Arguments come from the sandbox: checked.
import type { DataStoreRead } from "../ipc.ts";
import { keyProblem, ttlProblem, valueProblem, type DataStoreOp, type DataStoreWrites } from "../../lib/data-store-limits.ts";

/** a key's state as this invocation left it: set (its JSON), deleted (null), or only a new expiry */
type Entry = { json: string | null; exp?: number | null } | { ttl: number | null };

interface Overlay {
  cleared: boolean;
  keys: Map<string, Entry>;
  ops: DataStoreOp[];
}

/** reads of one invocation waiting on the host at once; more wait their turn here */
const MAX_READS_IN_FLIGHT = 16;

export type HostRead = (store: string, op: DataStoreRead, key?: string) => Promise<unknown>;

export class DataStoreWork {
  readonly #allowed: ReadonlySet<string>;
  readonly #read: HostRead;
  readonly #charge: (bytes: number, what: string) => void;
  readonly #stores = new Map<string, Overlay>();
  #inFlight = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(allowed: readonly string[], read: HostRead, charge: (bytes: number, what: string) => void) {
    this.#allowed = new Set(allowed);
    this.#read = read;
    this.#charge = charge;
  }

  /** One call of the sandbox's data store object: its answer, or a promise of it. */
  call(store: unknown, op: unknown, args: unknown[]): unknown {
    if (typeof store !== "string" || !this.#allowed.has(store)) {
      throw new TypeError(`data store ${JSON.stringify(String(store)).slice(0, 80)} is not one this component's props name`);
    }
    const o = this.#overlay(store);
    switch (op) {
      case "get":
        return this.#get(store, o, key(args[0]));
      case "has":
        return Promise.resolve(this.#get(store, o, key(args[0]))).then((json) => json !== null);
      case "set":
        return this.#set(o, key(args[0]), args[1], args[2]);
      case "delete":
        return this.#write(o, key(args[0]), { json: null }, { op: "delete", key: key(args[0]) });
      case "setTtl":
        return this.#setTtl(o, key(args[0]), args[1]);
      case "keys":
        return this.#all(store, o, false).then((m) => [...m.keys()]);
      case "entries":
        return this.#all(store, o, true).then((m) => [...m]);
      case "clear":
        o.cleared = true;
        o.keys.clear();
        o.ops.push({ op: "clear" });
        return undefined;
      default:
        throw new TypeError(`unknown data store call "${String(op)}"`);
    }
  }

  /** the writes to hand the host, per store in call order */
  writes(): DataStoreWrites[] | undefined {
    const out: DataStoreWrites[] = [];
    for (const [store, o] of this.#stores) if (o.ops.length > 0) out.push({ store, ops: o.ops });
    return out.length > 0 ? out : undefined;
  }

  #overlay(store: string): Overlay {
    let o = this.#stores.get(store);
    if (!o) this.#stores.set(store, (o = { cleared: false, keys: new Map(), ops: [] }));
    return o;
  }

  #set(o: Overlay, k: string, json: unknown, ttl: unknown): void {
    if (typeof json !== "string") throw new TypeError("set(): the value must be JSON-serializable (not undefined or a function)");
    const problem = valueProblem(json);
    if (problem) throw new RangeError(`set(): the value ${problem}`);
    const exp = ttl === undefined ? undefined : expiry(ttl, "set()");
    this.#write(o, k, { json, exp }, { op: "set", key: k, valueJson: json, ...(exp === undefined ? {} : { expiresAtMs: exp }) }, json.length);
  }

  #setTtl(o: Overlay, k: string, ttl: unknown): void {
    const exp = expiry(ttl, "setTtl()");
    const e = o.keys.get(k);
    // a key this invocation set gets the expiry; one it deleted stays gone
    const next: Entry = e && "json" in e ? (e.json === null ? e : { json: e.json, exp }) : { ttl: exp };
    this.#write(o, k, next, { op: "ttl", key: k, expiresAtMs: exp });
  }

  #write(o: Overlay, k: string, entry: Entry, op: DataStoreOp, valueBytes = 0): void {
    this.#charge(k.length + valueBytes + 32, "data store writes");
    o.keys.set(k, entry);
    o.ops.push(op);
  }

  /** the key's JSON as this invocation sees it, or null: none */
  #get(store: string, o: Overlay, k: string): string | null | Promise<string | null> {
    const e = o.keys.get(k);
    const now = Date.now();
    if (e && "json" in e) return e.json !== null && live(e.exp, now) ? e.json : null;
    if (o.cleared || (e && !live(e.ttl, now))) return null;
    return this.#ask(store, "get", k).then((v) => (typeof v === "string" ? v : null));
  }

  /** every live key with its JSON, committed ones first (in key order), this invocation's laid over them */
  async #all(store: string, o: Overlay, values: boolean): Promise<Map<string, string>> {
    const all = new Map<string, string>();
    if (!o.cleared && values) for (const [k, json] of (await this.#ask(store, "entries")) as Array<[string, string]>) all.set(k, json);
    if (!o.cleared && !values) for (const k of (await this.#ask(store, "keys")) as string[]) all.set(k, "");
    const now = Date.now();
    for (const [k, e] of o.keys) {
      if ("json" in e) {
        if (e.json !== null && live(e.exp, now)) all.set(k, e.json);
        else all.delete(k);
      } else if (!live(e.ttl, now)) all.delete(k);
    }
    return all;
  }

  async #ask(store: string, op: DataStoreRead, k?: string): Promise<unknown> {
    if (this.#inFlight >= MAX_READS_IN_FLIGHT) await new Promise<void>((go) => this.#waiting.push(go));
    this.#inFlight++;
    try {
      return await this.#read(store, op, k);
    } finally {
      this.#inFlight--;
      this.#waiting.shift()?.();
    }
  }
}

function key(v: unknown): string {
  if (typeof v !== "string") throw new TypeError("a data store key must be a string");
  const problem = keyProblem(v);
  if (problem) throw new TypeError(`a data store key ${problem}`);
  return v;
}

/** ttl in seconds → when it expires (ms), or null: never */
function expiry(ttl: unknown, what: string): number | null {
  if (ttl === null) return null;
  const problem = ttlProblem(ttl);
  if (problem) throw new RangeError(`${what}: ttl ${problem}`);
  return Date.now() + (ttl as number) * 1000;
}

const live = (exp: number | null | undefined, now: number) => exp === undefined || exp === null || exp > now;
