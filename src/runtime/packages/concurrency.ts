// Bounds on how much of the installer's work runs at once: registry requests (each up to its
// size cap in memory) and the packages of a tree.

/** Runs at most `limit` of the functions given to it at a time; the rest wait their turn. */
export class Limiter {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((r) => this.#waiting.push(r));
    else this.#running++;
    try {
      return await fn();
    } finally {
      // the slot passes straight to the next in line, so `running` never drops in between
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/** `fn` over `items`, `limit` at a time; after a failure no new item is started. */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  let failed = false;
  const lane = async () => {
    while (i < items.length && !failed) {
      try {
        await fn(items[i++]);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** `fn` over `items`, `limit` at a time, the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  const indexed = items.map((item, i) => ({ item, i }));
  await forEachLimited(indexed, limit, async ({ item, i }) => {
    out[i] = await fn(item);
  });
  return out;
}
