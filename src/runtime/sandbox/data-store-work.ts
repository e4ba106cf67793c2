// An invocation's use of its data stores (`data_store` props: docs/writing-workflows.md, "Data stores"), on the runner's side.
// Its writes are kept here as each touched key's final state (and whether the store was cleared
// first), handed to the host with the result and committed with the invocation (a workflow step's
// end). Reads see the store's committed state (asked of the host) with those writes laid over it.
// Expiry is judged when each call is made, so what a run reads is what its commit leaves.
// Arguments come from the sandbox: checked.
import type { DataStoreRead } from "../ipc.ts";
import { keyProblem, ttlProblem, valueProblem, type DataStoreOp, type DataStoreWrites } from "../../lib/data-store-limits.ts";

/** a key as this invocation left it: set (its JSON and expiry; undefined: the committed one's), deleted (null), or only a new expiry */
type Entry = { json: string; exp: number | null | undefined } | { json: null } | { ttl: number | null };

interface Overlay {
  cleared: boolean;
  keys: Map<string, Entry>;
}

/** reads of one invocation waiting on the host at once; past it a read throws */
const MAX_READS_PENDING = 256;
/** what one key's entry costs against the invocation's output, beyond its key and value */
const ENTRY_BYTES = 32;

export type HostRead = (store: string, op: DataStoreRead, key?: string) => Promise<unknown>;

/** What a call gives back now, or `ASK`: it needs a read of the host (callRead). */
export const ASK = Symbol("ask the host");

export class DataStoreWork {
  readonly #allowed: ReadonlySet<string>;
  readonly #read: HostRead;
  readonly #charge: (bytes: number, what: string) => void;
  readonly #stores = new Map<string, Overlay>();
  #pending = 0;

  constructor(allowed: readonly string[], read: HostRead, charge: (bytes: number, what: string) => void) {
    this.#allowed = new Set(allowed);
    this.#read = read;
    this.#charge = charge;
  }

  /**
   * One call of the sandbox's data store object, answered now when it can be: every write, and a
   * read this invocation's own writes answer. `ASK` when only the host can (then callRead).
   */
  callNow(store: unknown, op: unknown, args: unknown[]): unknown {
    const o = this.#overlay(store);
    switch (op) {
      case "get":
        return this.#local(o, key(args[0]));
      case "has": {
        const v = this.#local(o, key(args[0]));
        return v === ASK ? ASK : v !== null;
      }
      case "set":
        return this.#set(o, key(args[0]), args[1], args[2]);
      case "delete":
        return this.#put(o, key(args[0]), { json: null });
      case "setTtl":
        return this.#setTtl(o, key(args[0]), args[1]);
      case "clear":
        this.#charge(ENTRY_BYTES, "data store writes");
        o.cleared = true;
        o.keys.clear();
        return undefined;
      case "keys":
      case "entries":
        return o.cleared && o.keys.size === 0 ? [] : ASK;
      default:
        throw new TypeError(`unknown data store call "${String(op)}"`);
    }
  }

  /** A read callNow couldn't answer: asked of the host, with this invocation's writes laid over. */
  async callRead(store: string, op: unknown, args: unknown[]): Promise<unknown> {
    const o = this.#overlay(store);
    if (this.#pending >= MAX_READS_PENDING) throw new RangeError(`more than ${MAX_READS_PENDING} data store reads waiting at once`);
    this.#pending++;
    try {
      switch (op) {
        case "get":
        case "has": {
          const k = key(args[0]);
          const json = await this.#read(store, "get", k);
          const v = typeof json === "string" ? json : null;
          return op === "has" ? v !== null : v;
        }
        case "keys":
          return [...(await this.#all(store, o, false)).keys()];
        case "entries":
          return [...(await this.#all(store, o, true))];
        default:
          throw new TypeError(`unknown data store call "${String(op)}"`);
      }
    } finally {
      this.#pending--;
    }
  }

  /** the writes to hand the host: per store, a clear first if there was one, then each key's end state */
  writes(): DataStoreWrites[] | undefined {
    const out: DataStoreWrites[] = [];
    for (const [store, o] of this.#stores) {
      const ops: DataStoreOp[] = o.cleared ? [{ op: "clear" }] : [];
      for (const [k, e] of o.keys) {
        if ("ttl" in e) ops.push({ op: "ttl", key: k, expiresAtMs: e.ttl });
        else if (e.json === null) ops.push({ op: "delete", key: k });
        else ops.push({ op: "set", key: k, valueJson: e.json, ...(e.exp === undefined ? {} : { expiresAtMs: e.exp }) });
      }
      if (ops.length > 0) out.push({ store, ops });
    }
    return out.length > 0 ? out : undefined;
  }

  #overlay(store: unknown): Overlay {
    if (typeof store !== "string" || !this.#allowed.has(store)) {
      throw new TypeError(`data store ${JSON.stringify(String(store)).slice(0, 80)} is not one this component's props name`);
    }
    let o = this.#stores.get(store);
    if (!o) this.#stores.set(store, (o = { cleared: false, keys: new Map() }));
    return o;
  }

  /** the key's JSON (null: none) as this invocation's writes decide it, or ASK */
  #local(o: Overlay, k: string): string | null | typeof ASK {
    const e = this.#live(o, k);
    if (e === undefined) return o.cleared ? null : ASK;
    if ("ttl" in e) return ASK;
    return e.json;
  }

  /** the key's entry, an expired one turned into a delete first (its expiry is judged now) */
  #live(o: Overlay, k: string): Entry | undefined {
    const e = o.keys.get(k);
    if (!e) return undefined;
    const exp = "ttl" in e ? e.ttl : e.json !== null ? e.exp : undefined;
    if (exp !== undefined && exp !== null && exp <= Date.now()) {
      const gone: Entry = { json: null };
      o.keys.set(k, gone);
      return gone;
    }
    return e;
  }

  #set(o: Overlay, k: string, json: unknown, ttl: unknown): void {
    if (typeof json !== "string") throw new TypeError("set(): the value must be JSON-serializable (not undefined or a function)");
    const problem = valueProblem(json);
    if (problem) throw new RangeError(`set(): the value ${problem}`);
    const exp = ttl === undefined ? undefined : expiry(ttl, "set()");
    // without a ttl, a key set earlier in this run keeps the expiry it was given
    const before = this.#live(o, k);
    const kept = exp !== undefined ? exp : before && "json" in before && before.json !== null ? before.exp : undefined;
    this.#put(o, k, { json, exp: kept }, json.length);
  }

  #setTtl(o: Overlay, k: string, ttl: unknown): void {
    const exp = expiry(ttl, "setTtl()");
    const e = this.#live(o, k);
    // a key this invocation set gets the expiry; one it deleted (or that expired) stays gone
    if (e && "json" in e) {
      if (e.json !== null) this.#put(o, k, { json: e.json, exp });
      return;
    }
    if (!e && o.cleared) return;
    this.#put(o, k, { ttl: exp });
  }

  #put(o: Overlay, k: string, entry: Entry, valueBytes = 0): void {
    this.#charge((o.keys.has(k) ? 0 : k.length) + valueBytes + ENTRY_BYTES, "data store writes");
    o.keys.set(k, entry);
  }

  /** every live key with its JSON: the committed ones (in key order), this invocation's laid over them */
  async #all(store: string, o: Overlay, values: boolean): Promise<Map<string, string>> {
    const all = new Map<string, string>();
    if (!o.cleared && values) for (const [k, json] of (await this.#read(store, "entries")) as Array<[string, string]>) all.set(k, json);
    if (!o.cleared && !values) for (const k of (await this.#read(store, "keys")) as string[]) all.set(k, "");
    for (const k of [...o.keys.keys()]) {
      const e = this.#live(o, k)!;
      if ("ttl" in e) continue;
      if (e.json === null) all.delete(k);
      else all.set(k, e.json);
    }
    return all;
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
