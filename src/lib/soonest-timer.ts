import { MAX_TIMER_MS } from "./clock.ts";

/**
 * One timer for the soonest of many due times: arming it for a later time than it holds changes
 * nothing; for an earlier one, it moves. It fires once, then waits to be armed again. Unref'd: a
 * due time never keeps the process alive.
 */
export class SoonestTimer {
  readonly #fire: () => void;
  #timer: NodeJS.Timeout | undefined;
  #at = Infinity;

  constructor(fire: () => void) {
    this.#fire = fire;
  }

  arm(at: number): void {
    if (at >= this.#at) return;
    clearTimeout(this.#timer);
    this.#at = at;
    this.#timer = setTimeout(() => {
      this.#at = Infinity;
      this.#fire();
    }, Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())));
    this.#timer.unref();
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#at = Infinity;
  }
}
