import ivm from "isolated-vm";

// Isolates shared by the sources of one owner running the same code, each source in a context
// of its own. An isolate with the runtime costs about 1.4 MB of RSS, a further context in it about
// 0.34 MB (measured with 200 of each): with hundreds of timer sources of one component, warm
// sources cost a quarter of what they did. The sharing stays inside one owner's one component,
// so nothing crosses between users: contexts don't see each other's globals, and a memory bomb
// or an endless loop (which ends the whole isolate) takes down only the same owner's copies of
// the same code, which then start cold. An isolate holds at most CONTEXTS_PER_ISOLATE sources (or
// runs of one workflow side by side: 1,000 runs awaiting an API at once took 1,005 MB of RSS in
// 32 isolates of 32 contexts, 918 MB in 8 of 128; each isolate keeps heap of its own), and
// takes no new one once its heap is past half its limit: a component with a big bundle (a few MB
// of npm code per context) spreads over more isolates instead of running them out of memory.

export const CONTEXTS_PER_ISOLATE = 128;

export interface PooledIsolate {
  readonly isolate: ivm.Isolate;
  /** gives the context's place back; the isolate goes with its last context */
  release(): void;
  /** contexts in the isolate now (its heap is shared among them) */
  readonly contexts: () => number;
}

interface Entry {
  isolate: ivm.Isolate;
  contexts: number;
}

const shared = new Map<string, Entry[]>();

/** An isolate for one more source: shared when `owner` is given, else its own. */
export function isolateFor(owner: string | undefined, codeHash: string, memoryMb: number): PooledIsolate {
  if (owner === undefined) {
    const isolate = new ivm.Isolate({ memoryLimit: memoryMb });
    return { isolate, release: () => dispose(isolate), contexts: () => 1 };
  }
  const key = `${owner}\u0000${codeHash}\u0000${memoryMb}`;
  let entries = shared.get(key);
  if (!entries) shared.set(key, (entries = []));
  // dead isolates (a timeout or OOM ended them) leave the pool
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].isolate.isDisposed) entries.splice(i, 1);
  let entry = entries.find((e) => e.contexts < CONTEXTS_PER_ISOLATE && roomy(e.isolate, memoryMb));
  if (!entry) {
    entry = { isolate: new ivm.Isolate({ memoryLimit: memoryMb }), contexts: 0 };
    entries.push(entry);
  }
  entry.contexts++;
  const e = entry;
  let released = false;
  return {
    isolate: e.isolate,
    contexts: () => e.contexts,
    release() {
      if (released) return;
      released = true;
      e.contexts--;
      if (e.contexts > 0) return;
      dispose(e.isolate);
      const list = shared.get(key);
      if (!list) return;
      const at = list.indexOf(e);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) shared.delete(key);
    },
  };
}

function roomy(isolate: ivm.Isolate, memoryMb: number): boolean {
  try {
    const h = isolate.getHeapStatisticsSync();
    return h.used_heap_size + h.externally_allocated_size < (memoryMb * 1024 * 1024) / 2;
  } catch {
    return false;
  }
}

function dispose(isolate: ivm.Isolate): void {
  if (!isolate.isDisposed) isolate.dispose();
}
