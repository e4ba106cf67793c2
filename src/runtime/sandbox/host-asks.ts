// What the runner says to the host while an invocation runs: questions (ipc.ts RunnerAsk: reads of
// data stores, which live in the host's store), each waiting for its answer, and news that needs
// none (RunnerTell: a response to send at once). Both leave in order with the replies
// (runner-main.ts sends them). An answer that never comes (the host died) doesn't matter: the
// runner dies with the host.
import type { DataStoreRead, RunnerAnswer, RunnerQuestion, RunnerTell } from "../ipc.ts";

const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let next = 1;
let send: ((ask: RunnerQuestion) => void) | undefined;
let tell: ((t: RunnerTell) => void) | undefined;

/** how asks and tells leave (runner-main.ts: in its outbox, after the replies finished before them) */
export function connectHost(ways: { ask: (ask: RunnerQuestion) => void; tell: (t: RunnerTell) => void }): void {
  send = ways.ask;
  tell = ways.tell;
}

export function tellHost(t: RunnerTell): void {
  tell?.(t);
}

export function askHost(req: number, store: string, op: DataStoreRead, key?: string): Promise<unknown> {
  return ask((n) => ({ ask: n, req, store, op, ...(key === undefined ? {} : { key }) }));
}

/** the code of invoke request `req`, whose code hash is `codeHash` (RunnerCodeAsk) */
export async function askCode(req: number, codeHash: string): Promise<string> {
  const code = await ask((n) => ({ ask: n, req, code: codeHash }));
  if (typeof code !== "string") throw new Error("the host sent no code");
  return code;
}

/** the environment variables' text of version `version`, which invoke request `req` names (RunnerEnvAsk) */
export async function askEnv(req: number, version: string): Promise<string> {
  const json = await ask((n) => ({ ask: n, req, env: version }));
  if (typeof json !== "string") throw new Error("the host sent no environment variables");
  return json;
}

function ask(make: (n: number) => RunnerQuestion): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!send || !process.connected) {
      reject(new Error("the service is not reachable from this sandbox"));
      return;
    }
    const a = make(next++);
    pending.set(a.ask, { resolve, reject });
    send(a);
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
