// A source's db as the runner holds it: values kept as JSON text (so get() hands out a fresh copy
// and set() measures exactly), with the JSON size of the whole state tracked incrementally.

export class DbState {
  #entries: Map<string, string>;
  #bytes: number;

  private constructor(entries: Map<string, string>) {
    this.#entries = entries;
    this.#bytes = 2;
    for (const [k, v] of entries) this.#bytes += DbState.#entryBytes(k, v);
  }

  static fromObject(state: Record<string, unknown>): DbState {
    const entries = new Map<string, string>();
    for (const [k, v] of Object.entries(state ?? {})) {
      const json = JSON.stringify(v);
      if (json !== undefined) entries.set(k, json);
    }
    return new DbState(entries);
  }

  // `"key":value` plus the comma that separates it from the others (one comma too many, on
  // purpose: the bound only needs to be exact to within a byte).
  static #entryBytes(key: string, json: string): number {
    return Buffer.byteLength(JSON.stringify(key)) + 1 + Buffer.byteLength(json) + 1;
  }

  get bytes(): number {
    return this.#bytes;
  }

  clone(): DbState {
    return new DbState(new Map(this.#entries));
  }

  get(key: string): string | undefined {
    return this.#entries.get(key);
  }

  /** Throws (into the invocation) when the state would grow past maxBytes; shrinking always works. */
  set(key: string, json: string | undefined, maxBytes: number): void {
    const old = this.#entries.get(key);
    const oldBytes = old === undefined ? 0 : DbState.#entryBytes(key, old);
    const newBytes = json === undefined ? 0 : DbState.#entryBytes(key, json);
    const total = this.#bytes - oldBytes + newBytes;
    if (newBytes > oldBytes && total > maxBytes) {
      throw new RangeError(`db.set("${key.slice(0, 100)}"): the db would be ${total} bytes of JSON, over the limit of ${maxBytes}`);
    }
    if (json === undefined) this.#entries.delete(key);
    else this.#entries.set(key, json);
    this.#bytes = total;
  }

  toObject(): Record<string, unknown> {
    // fromEntries defines properties, so a "__proto__" key stays a key.
    return Object.fromEntries([...this.#entries].map(([k, v]) => [k, JSON.parse(v)]));
  }
}
