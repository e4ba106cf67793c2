// What the runner says to the host while an invocation runs: questions (ipc.ts RunnerQuestion:
// reads of data stores, which live in the host's store, and a request's code or environment
// variables), each waiting for its answer, and news that needs none (RunnerTell: a response to
// send at once). Both leave in order with the replies (runner-main.ts sends them). An answer that
// never comes (the host died) doesn't matter: the runner dies with the host.
import type { DataStoreRead, RunnerAnswer, RunnerQuestion, RunnerTell } from "../ipc.ts";
import type { HttpResponse } from "../protocol.ts";

const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let next = 1;
let send: ((ask: RunnerQuestion) => void) | undefined;
let tell: ((t: RunnerTell) => void) | undefined;

/** how asks and tells leave (runner-main.ts: in its outbox, after the replies finished before them) */
export function connectHost(ways: { ask: (ask: RunnerQuestion) => void; tell: (t: RunnerTell) => void }): void {
  send = ways.ask;
  tell = ways.tell;
}

/** invoke request `req` waits for a context (ipc.ts RunnerWaitingTell), or begins after waiting (RunnerBeganTell) */
export function tellTurn(req: number, what: "waiting" | "began"): void {
  tell?.({ t: what, req });
}

/** invoke request `req`'s response, to be sent now ($.respond({immediate: true})) */
export function tellResponse(req: number, response: HttpResponse): void {
  tell?.({ t: "respond", req, response });
}

export function askHost(req: number, store: string, op: DataStoreRead, key?: string): Promise<unknown> {
  return ask((n) => ({ t: "store-read", ask: n, req, store, op, ...(key === undefined ? {} : { key }) }));
}

/** the code of invoke request `req`, whose code hash is `codeHash` (RunnerCodeAsk) */
export async function askCode(req: number, codeHash: string): Promise<string> {
  const code = await ask((n) => ({ t: "code", ask: n, req, codeHash }));
  if (typeof code !== "string") throw new Error("the host sent no code");
  return code;
}

/** the environment variables' text of version `version`, which invoke request `req` names (RunnerEnvAsk) */
export async function askEnv(req: number, version: string): Promise<string> {
  const json = await ask((n) => ({ t: "env", ask: n, req, envVersion: version }));
  if (typeof json !== "string") throw new Error("the host sent no environment variables");
  return json;
}

function ask(make: (n: number) => RunnerQuestion): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!send || !process.connected) {
      reject(new Error("the service is not reachable from this sandbox"));
      return;
    }
    const question = make(next++);
    pending.set(question.ask, { resolve, reject });
    send(question);
  });
}

/** settles the ask the host answered (runner-main.ts hands it every "answer" message) */
export function takeAnswer(answer: RunnerAnswer): void {
  const waiting = pending.get(answer.ask);
  if (!waiting) return;
  pending.delete(answer.ask);
  if (answer.ok) waiting.resolve(answer.value);
  else waiting.reject(new Error(String(answer.message)));
}
