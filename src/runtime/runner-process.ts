// Host side of one runner process: a forked Node that runs component code in isolates, walled in
// by Node's permission model. The host never trusts the runner to answer: each request carries a
// wall-clock deadline, and a runner that overruns one (or dies) is replaced on the next request.
//
// Composed of: runner-child.ts (the process and its channel), runner-queue.ts (where each request
// goes, per key, and when its deadline starts), crash-policy.ts (what becomes of a request whose
// runner went away or whose deadline passed) and runner-answers.ts (the runner's questions).
import { AppError, ERROR_STATUS, type ErrorCode } from "../lib/errors.ts";
import type { RunnerRequest } from "./protocol.ts";
import { droppedMessage, MAX_TURN_WAIT_MS, tagOf, type RunnerAsk, type RunnerEnvelope, type RunnerReply, type RunnerSettings, type RunnerTell, type RunnerToHost } from "./ipc.ts";
import { runnerEntry } from "./runner-entry.ts";
import { RunnerChild, type RunnerChildOptions } from "./runner-child.ts";
import { RunnerQueue, type RunnerLoad } from "./runner-queue.ts";
import { afterRunnerLoss, atDeadline, type RunnerLoss } from "./crash-policy.ts";
import { answerQuestion } from "./runner-answers.ts";
import type { Pending, RequestOptions } from "./runner-request.ts";

export type { RequestOptions } from "./runner-request.ts";

export interface RunnerProcessOptions {
  /** the runner's entry file; tests substitute a fake runner */
  entry?: string;
  settings?: RunnerSettings;
  /**
   * A runner whose RSS passes this is retired: it gets no new work, and is stopped once what it
   * holds is done (0 = never). What a component leaves behind in the runner, and V8's own
   * fragmentation, are then bounded by a restart instead of growing for the process's lifetime.
   */
  maxRssBytes?: number;
  /**
   * A runner with nothing to do for this long is stopped, and the next request starts another
   * (0 = never): for runners used now and then, whose memory is worth more than their start-up.
   */
  idleMs?: number;
  /** the runner's CPU priority below the service's (a nice value, 0-19; 0 = the same) */
  nice?: number;
  /**
   * Answers a runner's question during an invocation (a data store read). Called only for a
   * store the pending invoke request names; absent: every question fails.
   */
  answer?: (ask: RunnerAsk) => Promise<unknown>;
}

export class RunnerProcess {
  readonly #childOptions: RunnerChildOptions;
  readonly #maxRss: number;
  readonly #idleMs: number;
  readonly #answer: RunnerProcessOptions["answer"];
  readonly #queue: RunnerQueue;
  readonly #pending = new Map<number, Pending>();
  /** the runner new work goes to; null before the first request, and once it is leaving */
  #current: RunnerChild | null = null;
  #idleTimer: NodeJS.Timeout | undefined;
  #nextId = 1;
  #closed = false;
  /** runners started so far, the first included (a metric: restarts = started - 1) */
  started = 0;
  /** the RSS the current runner last reported, bytes */
  lastRss = 0;

  constructor(opts: RunnerProcessOptions = {}) {
    this.#childOptions = { entry: opts.entry ?? runnerEntry(), settings: opts.settings, nice: opts.nice ?? 0 };
    this.#maxRss = opts.maxRssBytes ?? 0;
    this.#idleMs = opts.idleMs ?? 0;
    this.#answer = opts.answer;
    this.#queue = new RunnerQueue({
      currentRunner: () => this.#ensureChild(),
      arm: (pending) => this.#arm(pending),
      loadChanged: (child, load) => this.#loadChanged(child, load),
    });
  }

  /** the current runner's process id (none between an idle stop and the next request) */
  get pid(): number | undefined {
    return this.#current?.pid;
  }

  /** whether a runner process is up now (not between an idle stop and the next request) */
  get running(): boolean {
    return this.#current !== null;
  }

  request<T>(req: RunnerRequest, opts: RequestOptions): Promise<T> {
    if (this.#closed) return Promise.reject(new AppError("unavailable", "sandbox runner is closed"));
    return new Promise<T>((resolve, reject) => {
      const id = this.#nextId++;
      const pending: Pending = {
        msg: { ...req, id },
        opts,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: undefined,
        child: undefined,
        history: { retried: false, crashes: 0 },
        started: false,
        settled: false,
      };
      this.#pending.set(id, pending);
      this.#queue.enqueue(pending);
      this.#queue.dispatch(pending);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.close();
    clearTimeout(this.#idleTimer);
    for (const pending of this.#pending.values()) this.#settle(pending, new AppError("unavailable", "sandbox runner closed"));
    this.#current = null;
    await Promise.all(this.#queue.runners().map((child) => child.stop()));
  }

  #ensureChild(): RunnerChild {
    if (this.#current) return this.#current;
    const child = new RunnerChild(this.#childOptions, {
      message: (from, message) => this.#onMessage(from, message),
      leaving: (leaving) => {
        if (this.#current === leaving) this.#current = null;
      },
      death: (dead) => this.#onDeath(dead),
      unsendable: (id, error) => {
        const pending = this.#pending.get(id);
        if (pending) this.#settle(pending, error);
      },
    });
    this.started++;
    this.#queue.addRunner(child);
    this.#current = child;
    return child;
  }

  #onMessage(child: RunnerChild, message: unknown): void {
    if (tagOf(message) === undefined) return void process.stderr.write(droppedMessage("runner host", message));
    const decoded = message as RunnerToHost;
    switch (decoded.t) {
      case "replies":
        return this.#onEnvelope(child, decoded);
      case "started": {
        const pending = this.#pending.get(decoded.id);
        if (pending) pending.started = true;
        return;
      }
      default:
        process.stderr.write(droppedMessage("runner host", decoded));
    }
  }

  #onEnvelope(child: RunnerChild, envelope: RunnerEnvelope): void {
    if (!Array.isArray(envelope.replies)) return void process.stderr.write(droppedMessage("runner host (no replies)", envelope));
    // news first: a response told while its invocation ran must reach it before its reply (from
    // the same tick) settles the request, after which nobody listens
    if (Array.isArray(envelope.tells)) for (const tell of envelope.tells) this.#onTell(child, tell);
    for (const reply of envelope.replies) this.#onReply(reply);
    if (Array.isArray(envelope.asks)) for (const ask of envelope.asks) answerQuestion(child, ask, (id) => this.#pending.get(id), this.#answer);
    if (typeof envelope.rss === "number") this.#onRss(child, envelope.rss);
  }

  #onTell(child: RunnerChild, tell: RunnerTell): void {
    const tag = tagOf(tell);
    if (tag !== "waiting" && tag !== "began" && tag !== "respond") return void process.stderr.write(droppedMessage("runner tell", tell));
    const pending = this.#pending.get(tell.req);
    if (!pending || pending.child !== child || pending.settled) return;
    if (tell.t === "waiting" || tell.t === "began") {
      // the deadline waits while the run waits its turn (bounded), then starts over: once each,
      // in that order, so a runner can't hold a request past its deadline by repeating them
      if (pending.timer === undefined || pending.turn === "began" || pending.turn === tell.t) return;
      if (tell.t === "began" && pending.turn !== "waiting") return;
      pending.turn = tell.t;
      if (tell.t === "began") return this.#arm(pending);
      clearTimeout(pending.timer);
      pending.timer = setTimeout(() => this.#overrun(pending), MAX_TURN_WAIT_MS + pending.opts.deadlineMs);
      return;
    }
    if (!pending.opts.onTell) return;
    try {
      pending.opts.onTell(tell.response);
    } catch {
      // a listener's failure is its own: the invocation goes on
    }
  }

  #onReply(reply: RunnerReply): void {
    if (tagOf(reply) !== "reply") return void process.stderr.write(droppedMessage("runner reply", reply));
    const pending = typeof reply.id === "number" ? this.#pending.get(reply.id) : undefined;
    if (!pending) return;
    if (reply.ok) return this.#settle(pending, undefined, reply.result);
    const code: ErrorCode = Object.hasOwn(ERROR_STATUS, reply.code) ? (reply.code as ErrorCode) : "internal";
    this.#settle(pending, new AppError(code, String(reply.message)));
  }

  #onRss(child: RunnerChild, rss: number): void {
    if (child === this.#current) this.lastRss = rss;
    if (this.#maxRss <= 0 || rss <= this.#maxRss) return;
    const load = this.#queue.retire(child);
    if (!load) return;
    if (this.#current === child) this.#current = null;
    if (load.pending === 0) this.#kill(child);
  }

  #loadChanged(child: RunnerChild, load: RunnerLoad): void {
    if (load.retiring && load.pending === 0) this.#kill(child);
    if (this.#idleMs <= 0 || child !== this.#current) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (load.pending > 0) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#queue.pendingOn(child) === 0) this.#kill(child);
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  #arm(pending: Pending): void {
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => this.#overrun(pending), pending.opts.deadlineMs);
  }

  #overrun(pending: Pending): void {
    if (pending.settled) return;
    const child = pending.child;
    const verdict = atDeadline({
      retryUnstarted: pending.opts.retryUnstarted === true,
      started: pending.started,
      retried: pending.history.retried,
      sent: child !== undefined,
    });
    if (verdict === "replace-runner" && child) {
      // not the component's doing: its runner goes, and it is tried again, innocent (#onDeath)
      pending.timer = setTimeout(() => this.#overrun(pending), pending.opts.deadlineMs);
      this.#kill(child);
      return;
    }
    this.#settle(pending, pending.opts.onTimeout());
    if (child) this.#kill(child);
  }

  #kill(child: RunnerChild): void {
    if (this.#current === child) this.#current = null;
    child.kill();
  }

  #onDeath(child: RunnerChild): void {
    if (!this.#queue.removeRunner(child)) return;
    if (this.#current === child) this.#current = null;
    const loss: RunnerLoss = this.#closed ? "closing" : child.killedByHost ? "killed-by-host" : "died";
    const again: Pending[] = [];
    for (const pending of this.#pending.values()) {
      if (pending.child !== child) continue;
      const verdict = afterRunnerLoss(loss, pending.opts.retryOnCrash === true, pending.history);
      if (verdict.action === "fail") this.#settle(pending, pending.opts.onCrash());
      else {
        pending.history = verdict.history;
        again.push(pending);
      }
    }
    // what was held follows the requests sent again, which were sent first
    const held = this.#queue.takeHeld();
    // in the order they were first sent (ids grow), so a key's requests keep their order
    for (const pending of again.sort((a, b) => a.msg.id - b.msg.id)) {
      if (pending.opts.resend) pending.msg = { ...pending.opts.resend(), id: pending.msg.id };
      // a fresh runner starts it over: so does its deadline (if it is running), and its turn
      pending.turn = undefined;
      if (pending.timer !== undefined) this.#arm(pending);
      pending.child = undefined;
      this.#queue.dispatch(pending);
    }
    for (const pending of held) if (!pending.settled) this.#queue.dispatch(pending);
  }

  #settle(pending: Pending, error: Error | undefined, result?: unknown): void {
    if (pending.settled) return;
    pending.settled = true;
    this.#pending.delete(pending.msg.id);
    clearTimeout(pending.timer);
    this.#queue.settled(pending);
    if (error) pending.reject(error);
    else pending.resolve(result);
  }
}
