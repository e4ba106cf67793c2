import type { Packument } from "./packument.ts";

// Packuments are reused for a few minutes (saving several components in a row asks the registry
// once), trimmed, and only so many of them: the least recently used go first past a count or an
// estimate of the memory they hold.

export interface PackumentCacheOptions {
  maxEntries: number;
  /** what the trimmed packuments may hold in all, bytes (their `weight`) */
  maxWeight: number;
  ttlMs: number;
}

export class PackumentCache {
  readonly #o: PackumentCacheOptions;
  // a Map iterates in insertion order: re-inserting on use keeps the least recent first
  readonly #entries = new Map<string, { at: number; value: Packument }>();
  #weight = 0;

  constructor(opts: PackumentCacheOptions) {
    this.#o = opts;
  }

  get(name: string): Packument | undefined {
    const e = this.#entries.get(name);
    if (!e) return undefined;
    this.#entries.delete(name);
    if (Date.now() - e.at >= this.#o.ttlMs) {
      this.#weight -= e.value.weight;
      return undefined;
    }
    this.#entries.set(name, e);
    return e.value;
  }

  set(name: string, value: Packument): void {
    const old = this.#entries.get(name);
    if (old) {
      this.#entries.delete(name);
      this.#weight -= old.value.weight;
    }
    if (value.weight > this.#o.maxWeight) return;
    this.#entries.set(name, { at: Date.now(), value });
    this.#weight += value.weight;
    for (const [oldest, e] of this.#entries) {
      if (this.#entries.size <= this.#o.maxEntries && this.#weight <= this.#o.maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= e.value.weight;
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }
}
