// How many invocations the host has out at one runner at once; the rest wait here, in arrival
// order (a source's invocations keep their order), with no deadline running yet. Without it, a
// burst of cold starts (a thousand timer sources ticking together) was handed to the runner at
// once: every start competed with every other, each ran into its deadline, and all of them
// failed. Bounded, they run late instead, and the timers fold ticks that come due meanwhile.

export class DispatchGate {
  readonly #max: number;
  #out = 0;
  readonly #queue: Array<() => void> = [];
  #head = 0;

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  /** waiting to be dispatched now */
  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  enter(): Promise<void> | undefined {
    if (this.#out < this.#max && this.waiting === 0) {
      this.#out++;
      return undefined;
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  leave(): void {
    if (this.#head < this.#queue.length) {
      const next = this.#queue[this.#head++];
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      next();
      return;
    }
    this.#out--;
  }
}
