import { storageFault, storageUnavailable, type FaultKind, refusedText } from "./faults.ts";

// The store's health. A storage fault on any query makes the store `unavailable`; from then on
// a tiny real write (the probe) runs every PROBE_EVERY_MS, and the first that succeeds makes it
// available again and tells the recovery listeners, so that work stuck behind the fault (the
// inbox, deliveries) can be picked up without a restart. Only the probe flips the state back:
// an ordinary success proves little (on a full disk reads still work, and so may a transaction
// that wrote nothing), and one clear signal keeps recovery from flapping with the traffic.

const PROBE_EVERY_MS = 1500;
/**
 * Faults while the probe keeps succeeding (connections dying one by one, the rest working) make
 * the store "degraded", not unavailable: requests mostly succeed, and a health check that said
 * 503 for the whole episode would take a working node out of its load balancer. Degraded while
 * the last probe succeeded within this, and none failed since.
 */
const DEGRADED_WINDOW_MS = 10_000;

type Listener<A extends unknown[]> = (...args: A) => unknown;

export class StoreHealth {
  readonly #probe: () => Promise<unknown>;
  #kind: FaultKind | undefined;
  #probeOkAt = 0;
  #probeFailedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  readonly #recovered = new Set<Listener<[]>>();
  readonly #unavailable = new Set<Listener<[unknown]>>();

  /** `probe` is the tiny write that shows the store works again */
  constructor(probe: () => Promise<unknown>) {
    this.#probe = probe;
  }

  get available(): boolean {
    return this.#kind === undefined;
  }

  /**
   * Translates a driver error: a storage fault becomes the storage_unavailable AppError (and the
   * store unavailable); anything else is returned as it is. An arrow, so it can be passed around.
   */
  readonly translate = (err: unknown): unknown => {
    const refused = refusedText(err);
    if (refused) return refused;
    const kind = storageFault(err);
    if (!kind) return err;
    if (this.#closed) return storageUnavailable(kind, err);
    const was = this.#kind;
    this.#kind = kind; // the latest fault is what /healthz reports
    if (was === undefined) {
      this.#schedule();
      notify(this.#unavailable, err);
    }
    return storageUnavailable(kind, err);
  };

  /**
   * Throws the storage_unavailable error while the store is unavailable; while it is only
   * degraded (see DEGRADED_WINDOW_MS), returns what is wrong instead.
   */
  check(now = Date.now()): string | undefined {
    if (this.#kind === undefined) return undefined;
    const degraded = this.#probeOkAt > this.#probeFailedAt && now - this.#probeOkAt < DEGRADED_WINDOW_MS;
    if (!degraded) throw storageUnavailable(this.#kind);
    return `storage faults (${this.#kind}) come and go: writes succeed between them`;
  }

  onRecovered(listener: () => void): () => void {
    this.#recovered.add(listener);
    return () => this.#recovered.delete(listener);
  }

  onUnavailable(listener: (cause: unknown) => void): () => void {
    this.#unavailable.add(listener);
    return () => this.#unavailable.delete(listener);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    // unref: a pending probe never keeps the process alive on its own
    this.#timer = setTimeout(() => void this.#runProbe(), PROBE_EVERY_MS);
    this.#timer.unref();
  }

  async #runProbe(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#probe();
    } catch {
      // still failing (translate already saw the fault): try again later
      this.#probeFailedAt = Date.now();
      if (!this.#closed) this.#schedule();
      return;
    }
    this.#probeOkAt = Date.now();
    if (this.#closed || this.#kind === undefined) return;
    this.#kind = undefined;
    notify(this.#recovered);
  }
}

// A listener that throws (or returns a rejected promise) must not stop the others, the probe,
// or the query whose fault is being reported; it is reported as a process warning instead.
function notify<A extends unknown[]>(listeners: Set<Listener<A>>, ...args: A): void {
  for (const listener of listeners) {
    try {
      const r = listener(...args);
      if (r instanceof Promise) r.catch(warn);
    } catch (err) {
      warn(err);
    }
  }
}

function warn(err: unknown): void {
  process.emitWarning(`a store health listener failed: ${err instanceof Error ? err.message : String(err)}`);
}
