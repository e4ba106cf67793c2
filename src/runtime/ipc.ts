import type { HttpResponse, RunnerReply } from "./protocol.ts";

// What crosses the host↔runner channel besides the requests and replies themselves.

/** Settings the host hands a runner when it forks it (argv[2], as JSON: the runner sees no env). */
export interface RunnerSettings {
  /** heap budget of the runner's warm isolates together, MiB */
  warmMemoryMb: number;
  /** warm sources (contexts) a runner keeps at most; absent: sandbox/invoke.ts's default */
  warmSources?: number;
  /** the in-isolate runtime as one module (runtime-bundle.ts); absent: its modules one by one */
  runtimeBundle?: string;
  /**
   * false: every entry into an isolate goes through isolated-vm's thread pool; true: quick code
   * earns entries on the runner's thread (entry-mode.ts); "always": every code from its first
   * entry on, as long as it doesn't stall (for the tests of that path)
   */
  syncEntries?: boolean | "always";
}

/** One message from a runner: the replies finished in one tick, the questions then, and its RSS. */
export interface RunnerEnvelope {
  rss: number;
  replies: RunnerReply[];
  /**
   * Questions asked after those replies were finished (RunnerAsk). They share the envelope so
   * they reach the host after the results before them: a source's next invocation may read what
   * the last one wrote, and the host must know that result before it answers.
   */
  asks?: RunnerQuestion[];
  /** what invocations said while running, in order after the replies (RunnerTell) */
  tells?: RunnerTell[];
}

/** An invocation telling the host something before it ends: a response to send now ($.respond({immediate: true})). */
export interface RunnerTell {
  /** the invoke request's id */
  req: number;
  response: HttpResponse;
}

/**
 * Sent by the runner, alone and at once, when it starts on the part of a request that is the
 * component's own (RequestOptions.retryUnstarted): a runner stuck before that was not stuck on
 * the component.
 */
export interface RunnerStarted {
  started: number;
}

/**
 * A runner asking the host something while an invocation runs: a read of a data store the
 * invocation's request names (`req` is that request's id). The host checks both, answers with
 * RunnerAnswer, and the runner resolves the sandbox's promise with it.
 */
export interface RunnerAsk {
  ask: number;
  req: number;
  store: string;
  op: DataStoreRead;
  key?: string;
}

/**
 * A runner asking for the code of an invoke request that came without it (the host thought the
 * runner held it; the runner restarted or let it go): the request waits in its source's queue
 * for the answer, so the source's later invocations keep their place behind it. Answered with
 * the code text, from the pending request whose id is `req`, only when its code hash is `code`.
 */
export interface RunnerCodeAsk {
  ask: number;
  req: number;
  code: string;
}

/**
 * A runner asking for the text of the environment variables of version `env` (protocol.ts
 * EnvText), which invoke request `req` names and it doesn't hold. Answered with the JSON text
 * from that pending request, only when it names that version; the runner then keeps it.
 */
export interface RunnerEnvAsk {
  ask: number;
  req: number;
  env: string;
}

/** What a runner asks the host while an invocation runs. */
export type RunnerQuestion = RunnerAsk | RunnerCodeAsk | RunnerEnvAsk;

/** get: the value's JSON or null; keys: every live key; entries: every live [key, value JSON] */
export type DataStoreRead = "get" | "keys" | "entries";

export type RunnerAnswer = { answer: number; ok: true; value: unknown } | { answer: number; ok: false; message: string };

/**
 * One IPC message is one JSON string, and V8 strings stop at ~512 MiB ("Invalid string
 * length"), so batches are cut at this many bytes of payload, each item measured by `size`.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function batchesOf<T>(items: T[], size: (item: T) => number, max = MAX_MESSAGE_BYTES): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const n = size(item);
    if (batch.length > 0 && bytes + n > max) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += n;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}
