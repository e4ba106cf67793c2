// Where each request goes, and when its deadline starts: the per-key order of a RunnerProcess's
// requests (a key is a source) across its runners, while some of them are being retired or have
// died.
//
// - A key's requests go where its earlier ones still are, so the runner runs them in order.
// - Except to a runner being retired (or gone, its death not yet handled): there they are held
//   until its earlier ones are done (or sent again), and then go to the current runner. Before, a
//   source always busy kept its retiring runner alive for ever.
// - A key's requests queue in the runner behind one another (sandbox/invoke.ts chains them), so
//   only the oldest pending request of a key has its deadline running: with a deadline from the
//   moment it was sent, the 200th run of a burst timed out while it waited for the 199 before it,
//   and the runner was killed under every other source's work.
import type { RunnerChild } from "./runner-child.ts";
import type { Pending } from "./runner-request.ts";

/** What a runner holds of the requests routed here. */
export interface RunnerLoad {
  pending: number;
  /** it gets no new work, and is stopped once what it holds is done */
  retiring: boolean;
}

export interface RunnerQueueHost {
  /** the runner new work goes to, started if there is none */
  currentRunner(): RunnerChild;
  /** starts (or starts again) the request's deadline */
  arm(pending: Pending): void;
  /** a runner's load changed: RunnerProcess stops a retiring runner that is done, or one idle */
  loadChanged(child: RunnerChild, load: RunnerLoad): void;
}

interface ChildLoad extends RunnerLoad {
  /** pending requests per key on this runner */
  keys: Map<string, number>;
}

export class RunnerQueue {
  readonly #host: RunnerQueueHost;
  readonly #loads = new Map<RunnerChild, ChildLoad>();
  /** pending requests per key, oldest first: only the oldest has its deadline running */
  readonly #deadlineOrder = new Map<string, Pending[]>();
  /** requests of a key held back until the runner holding its earlier ones is done with them */
  readonly #held = new Map<string, Pending[]>();
  #closed = false;

  constructor(host: RunnerQueueHost) {
    this.#host = host;
  }

  addRunner(child: RunnerChild): void {
    this.#loads.set(child, { pending: 0, keys: new Map(), retiring: false });
  }

  /** forgets a runner that died; false when it was forgotten already */
  removeRunner(child: RunnerChild): boolean {
    return this.#loads.delete(child);
  }

  /** the runners not yet dead */
  runners(): RunnerChild[] {
    return [...this.#loads.keys()];
  }

  /** requests pending on `child`; undefined once it is dead */
  pendingOn(child: RunnerChild): number | undefined {
    return this.#loads.get(child)?.pending;
  }

  /** marks `child` retiring; its load if it wasn't already (then it gets no new work) */
  retire(child: RunnerChild): RunnerLoad | undefined {
    const load = this.#loads.get(child);
    if (!load || load.retiring) return undefined;
    load.retiring = true;
    return load;
  }

  /** a new request: its deadline starts now if it is keyless or the oldest of its key */
  enqueue(pending: Pending): void {
    const key = pending.opts.key;
    if (key === undefined) return this.#host.arm(pending);
    const order = this.#deadlineOrder.get(key);
    if (order) order.push(pending);
    else {
      this.#deadlineOrder.set(key, [pending]);
      this.#host.arm(pending);
    }
  }

  /** sends a request to its runner, or holds it back behind its key */
  dispatch(pending: Pending): void {
    const key = pending.opts.key;
    const holder = key === undefined ? undefined : this.#holderOf(key);
    const held = key === undefined ? undefined : this.#held.get(key);
    if (key !== undefined && (held || (holder && (this.#loads.get(holder)?.retiring || !holder.connected)))) {
      if (held) held.push(pending);
      else this.#held.set(key, [pending]);
      return;
    }
    pending.child = holder ?? this.#host.currentRunner();
    this.#track(pending, 1);
    pending.child.post(pending.msg);
  }

  /** a request was answered or failed: the next of its key gets its deadline, its runner's load drops */
  settled(pending: Pending): void {
    this.#dequeue(pending);
    if (!pending.child) this.#unhold(pending);
    this.#track(pending, -1);
  }

  /** everything held back, key by key (a runner died: it follows the requests sent again) */
  takeHeld(): Pending[] {
    const held = [...this.#held.values()].flat();
    this.#held.clear();
    return held;
  }

  /** nothing held is sent any more (RunnerProcess.close fails it all) */
  close(): void {
    this.#closed = true;
  }

  #holderOf(key: string): RunnerChild | undefined {
    for (const [child, load] of this.#loads) if ((load.keys.get(key) ?? 0) > 0) return child;
    return undefined;
  }

  #track(pending: Pending, delta: 1 | -1): void {
    if (!pending.child) return;
    const load = this.#loads.get(pending.child);
    if (!load) return;
    load.pending += delta;
    const key = pending.opts.key;
    if (key !== undefined) {
      const count = (load.keys.get(key) ?? 0) + delta;
      if (count > 0) load.keys.set(key, count);
      else {
        load.keys.delete(key);
        if (load.retiring) this.#release(key);
      }
    }
    this.#host.loadChanged(pending.child, load);
  }

  /** a key has nothing left on a retiring runner: what was held for it goes out, in order */
  #release(key: string): void {
    const held = this.#held.get(key);
    if (!held || this.#closed) return;
    this.#held.delete(key);
    for (const pending of held) if (!pending.settled) this.dispatch(pending);
  }

  #dequeue(pending: Pending): void {
    const key = pending.opts.key;
    const order = key === undefined ? undefined : this.#deadlineOrder.get(key);
    if (!order) return;
    const at = order[0] === pending ? 0 : order.indexOf(pending);
    if (at >= 0) order.splice(at, 1);
    if (order.length === 0) {
      this.#deadlineOrder.delete(key!);
      return;
    }
    const head = order[0];
    if (head.timer === undefined) this.#host.arm(head);
  }

  #unhold(pending: Pending): void {
    const key = pending.opts.key;
    const held = key === undefined ? undefined : this.#held.get(key);
    if (!held) return;
    const at = held.indexOf(pending);
    if (at >= 0) held.splice(at, 1);
    if (held.length === 0) this.#held.delete(key!);
  }
}
