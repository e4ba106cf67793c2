import type { HttpResponse, RunnerRequest } from "./protocol.ts";

// Every message that crosses the host↔runner channel, in both directions. Each kind has one type
// and a tag `t`; each side decodes what it receives with one switch on that tag and drops (and
// logs) a tag it doesn't know, so nothing is told apart by which fields it happens to carry.
//
//   host → runner: "requests" (the requests of one tick), "answer" (to one of the runner's asks)
//   runner → host: "replies" (the envelope: replies, asks, tells, RSS), "started"
//   inside an envelope: "reply"; asks "store-read" | "code" | "env"; tells "respond"
//
// A request keeps its own tag `type` ("analyze" | "invoke", protocol.ts): callers build requests
// with it, and it travels inside a "requests" message.

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

// ---- host → runner ----

/** A request as it is sent: the id its reply names. */
export type RequestMessage = RunnerRequest & { id: number };

/** The requests the host made in one tick, as one message (runner-child.ts batches them). */
export interface RequestsMessage {
  t: "requests";
  requests: RequestMessage[];
}

/** The host's answer to a runner's ask, by the ask's number. */
export type RunnerAnswer = { t: "answer"; ask: number; ok: true; value: unknown } | { t: "answer"; ask: number; ok: false; message: string };

export type HostToRunner = RequestsMessage | RunnerAnswer;

// ---- runner → host ----

/** The one reply to request `id`. */
export type RunnerReply = { t: "reply"; id: number; ok: true; result: unknown } | { t: "reply"; id: number; ok: false; code: string; message: string };

/** One message from a runner: the replies finished in one tick, the questions then, and its RSS. */
export interface RunnerEnvelope {
  t: "replies";
  rss: number;
  replies: RunnerReply[];
  /**
   * Questions asked after those replies were finished (RunnerQuestion). They share the envelope
   * so they reach the host after the results before them: a source's next invocation may read
   * what the last one wrote, and the host must know that result before it answers.
   */
  asks?: RunnerQuestion[];
  /** what invocations said while running, in order after the replies (RunnerTell) */
  tells?: RunnerTell[];
}

/**
 * Sent by the runner, alone and at once, when it starts on the part of request `id` that is the
 * component's own (RequestOptions.retryUnstarted): a runner stuck before that was not stuck on
 * the component.
 */
export interface RunnerStarted {
  t: "started";
  id: number;
}

export type RunnerToHost = RunnerEnvelope | RunnerStarted;

/** An invocation telling the host something before it ends: a response to send now ($.respond({immediate: true})). */
export interface RunnerRespondTell {
  t: "respond";
  /** the invoke request's id */
  req: number;
  response: HttpResponse;
}

/**
 * A run of a workflow waits in the runner for a context of its workflow (sandbox/contexts.ts:
 * runs that only compute take turns): its deadline at the host stops until "began", for at most
 * MAX_TURN_WAIT_MS (the runner gives the run up past that). A burst of such runs must not run
 * into the deadline, and the replacement of the runner that comes with it, while waiting their
 * turn. The host takes one of each per request, "waiting" before "began".
 */
export interface RunnerWaitingTell {
  t: "waiting";
  /** the invoke request's id */
  req: number;
}

/** The run that waited begins now: its deadline starts. */
export interface RunnerBeganTell {
  t: "began";
  /** the invoke request's id */
  req: number;
}

/** the longest a run waits in a runner for its turn in a context; past it, it fails (TimeoutError) */
export const MAX_TURN_WAIT_MS = 5 * 60 * 1000;

export type RunnerTell = RunnerRespondTell | RunnerWaitingTell | RunnerBeganTell;

/**
 * A runner asking the host something while an invocation runs: a read of a data store the
 * invocation's request names (`req` is that request's id). The host checks both, answers with
 * RunnerAnswer, and the runner resolves the sandbox's promise with it.
 */
export interface RunnerAsk {
  t: "store-read";
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
 * the code text, from the pending request whose id is `req`, only when its code hash is `codeHash`.
 */
export interface RunnerCodeAsk {
  t: "code";
  ask: number;
  req: number;
  codeHash: string;
}

/**
 * A runner asking for the text of the environment variables of version `envVersion` (protocol.ts
 * EnvText), which invoke request `req` names and it doesn't hold. Answered with the JSON text
 * from that pending request, only when it names that version; the runner then keeps it.
 */
export interface RunnerEnvAsk {
  t: "env";
  ask: number;
  req: number;
  envVersion: string;
}

/** What a runner asks the host while an invocation runs. */
export type RunnerQuestion = RunnerAsk | RunnerCodeAsk | RunnerEnvAsk;

/** get: the value's JSON or null; keys: every live key; entries: every live [key, value JSON] */
export type DataStoreRead = "get" | "keys" | "entries";

/**
 * The tag of a message read off the channel, or undefined for something that isn't a tagged
 * object: the decoders switch on it and drop what they don't know.
 */
export function tagOf(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const tag = (message as { t?: unknown }).t;
  return typeof tag === "string" ? tag : undefined;
}

/** How a side reports a message it dropped: one line, the tag only (the rest may be large). */
export function droppedMessage(side: string, message: unknown): string {
  return `${side}: dropped a message tagged ${JSON.stringify(tagOf(message) ?? null)}\n`;
}

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
    const itemBytes = size(item);
    if (batch.length > 0 && bytes + itemBytes > max) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += itemBytes;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}
