// The runner's questions to the host during an invocation (ipc.ts RunnerAsk): reads of data
// stores, which live in the host's store. They leave in order with the replies (runner-main.ts
// sends them); each waits for its answer. An answer that never comes (the host died) doesn't
// matter: the runner dies with the host.
import type { DataStoreRead, RunnerAnswer, RunnerAsk } from "../ipc.ts";

const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let next = 1;
let send: ((ask: RunnerAsk) => void) | undefined;

/** how asks leave (runner-main.ts: in its outbox, after the replies finished before them) */
export function sendAsksWith(f: (ask: RunnerAsk) => void): void {
  send = f;
}

export function askHost(req: number, store: string, op: DataStoreRead, key?: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!send || !process.connected) {
      reject(new Error("the service is not reachable from this sandbox"));
      return;
    }
    const ask: RunnerAsk = { ask: next++, req, store, op, ...(key === undefined ? {} : { key }) };
    pending.set(ask.ask, { resolve, reject });
    send(ask);
  });
}

/** Whether `msg` was an answer (and so was handled here). */
export function takeAnswer(msg: unknown): boolean {
  if (typeof msg !== "object" || msg === null || typeof (msg as RunnerAnswer).answer !== "number") return false;
  const a = msg as RunnerAnswer;
  const p = pending.get(a.answer);
  if (!p) return true;
  pending.delete(a.answer);
  if (a.ok) p.resolve(a.value);
  else p.reject(new Error(String(a.message)));
  return true;
}
