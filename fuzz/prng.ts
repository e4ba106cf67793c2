// A small deterministic PRNG (sfc32, seeded through splitmix32): the same seed makes the same
// requests in the same order, so any finding can be replayed with --seed.

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const split = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = split();
    this.#b = split();
    this.#c = split();
    this.#d = split();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** uniform in [0, 2^32) */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** an integer in [0, n) */
  int(n: number): number {
    return Math.floor((this.next() / 2 ** 32) * n);
  }

  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** picks by weight: [[weight, value], ...] */
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let r = (this.next() / 2 ** 32) * total;
    for (const [w, v] of items) {
      if ((r -= w) < 0) return v;
    }
    return items[items.length - 1][1];
  }
}
