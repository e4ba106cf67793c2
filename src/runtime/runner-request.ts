// A request to a runner as RunnerProcess holds it while it is pending: what the caller asked for
// (RequestOptions), where it went, and what it has been through (crash-policy.ts).
import type { RunnerChild } from "./runner-child.ts";
import type { CrashHistory } from "./crash-policy.ts";
import type { RequestMessage } from "./ipc.ts";
import type { HttpResponse, RunnerRequest } from "./protocol.ts";

export interface RequestOptions {
  /**
   * Host-side wall-clock limit; on overrun the runner process is killed. For a keyed request it
   * runs from when the key's earlier requests are done: the runner runs a key's requests one
   * after another, so the time one waits behind its own key's queue is not its overrun.
   */
  deadlineMs: number;
  /** the error this request fails with when its deadline passes */
  onTimeout: () => Error;
  /** the error this request fails with when the runner dies under it (for good) */
  onCrash: () => Error;
  /**
   * Requests with the same key run on the same runner while any of them is pending, so their
   * order holds while a runner is being retired (a source's invocations).
   */
  key?: string;
  /**
   * Durable work (it consumes an inbox row, a delivery or a timer tick): when the runner dies
   * under it, it runs once more on the replacement; dying a second time fails it with onCrash.
   */
  retryOnCrash?: boolean;
  /** the request as it should be sent again after a crash (fresher state); default: as it was */
  resend?: () => RunnerRequest;
  /**
   * The request's code, for a runner that asks for it (ipc.ts RunnerCodeAsk): one sent without
   * its code to a runner that no longer holds it (it restarted, or let the code go).
   */
  code?: () => string;
  /** the text of the environment variables the request names, for a runner that asks (ipc.ts RunnerEnvAsk) */
  env?: () => string;
  /** hears what the invocation tells while it runs (RunnerTell: a response to send now) */
  onTell?: (response: HttpResponse) => void;
  /**
   * The runner reports when it starts on the component's own part of this request (RunnerStarted).
   * A deadline passing before that means the runner was stuck on something else: the request is
   * sent once more to a fresh runner instead of failing with onTimeout.
   */
  retryUnstarted?: boolean;
}

export interface Pending {
  msg: RequestMessage;
  opts: RequestOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** its deadline, armed once it is the oldest pending request of its key (or at once, keyless) */
  timer: NodeJS.Timeout | undefined;
  /** the runner it went to; undefined while it is held back behind its key (runner-queue.ts) */
  child: RunnerChild | undefined;
  history: CrashHistory;
  /** the runner said it started on the component's part (retryUnstarted) */
  started: boolean;
  /** it has been answered or failed: nothing more is done with it */
  settled: boolean;
  /** the runner said it waits for its turn in a context, then that it began (ipc.ts RunnerWaitingTell) */
  turn?: "waiting" | "began";
}
