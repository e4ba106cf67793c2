import type { Target } from "../runtime/target.ts";

// A new timer source's first tick is due one interval after it was deployed (as Pipedream does),
// so sources created together tick for the first time together, and each of those first ticks
// used to start its context cold: creating 10,000 sources on a 15 s interval in 6 s made their
// first ticks ~20x later than the ones after (timers bench, lateness split by first tick). Here
// each new timer source's context is started on its runner when the source is deployed, a few
// at a time so deploys never crowd out running work, and only when its first tick is near
// enough that the runner will still hold it warm (a runner lets go of those due latest first).

/** warms in flight at once (one node) */
const CONCURRENCY = 4;
/** sources waiting to be warmed; past this a new source simply starts cold */
const MAX_QUEUED = 20_000;
/**
 * a first tick further away than this starts cold: holding its context until then costs more
 * (the runner lets a context go after a run whose next one is this far: FAR_MS in
 * runtime/sandbox/invoke.ts)
 */
const HORIZON_MS = 2 * 60_000;

export class TimerWarmup {
  readonly #warm: (t: Target, due: number) => Promise<void>;
  readonly #log: (err: unknown, what: string) => void;
  #queue: Array<{ t: Target; due: number }> = [];
  /** the next entry of #queue to warm (a burst of thousands is taken in order without shifting) */
  #head = 0;
  #active = 0;
  #closed = false;

  constructor(warm: (t: Target, due: number) => Promise<void>, log: (err: unknown, what: string) => void) {
    this.#warm = warm;
    this.#log = log;
  }

  /** Warms the source's context before `due`, its first tick, if that is near. */
  add(t: Target, due: number): void {
    if (this.#closed || due - Date.now() > HORIZON_MS || this.#queue.length - this.#head >= MAX_QUEUED) return;
    this.#queue.push({ t, due });
    this.#pump();
  }

  close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
  }

  #pump(): void {
    while (this.#active < CONCURRENCY && this.#head < this.#queue.length) {
      const { t, due } = this.#queue[this.#head++];
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
      // due already: the tick itself starts the context, and warming it now would only queue first
      if (due <= Date.now()) continue;
      this.#active++;
      this.#warm(t, due)
        .catch((e: unknown) => this.#log(e, `warming timer source ${t.source.id}`))
        .finally(() => {
          this.#active--;
          this.#pump();
        });
    }
  }
}
