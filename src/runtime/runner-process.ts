// Host side of one runner process: a forked Node that runs component code in isolates, walled in
// by Node's permission model. The host never trusts the runner to answer: each request carries a
// wall-clock deadline, and a runner that overruns one (or dies) is replaced on the next request.
import { fork, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { AppError, ERROR_STATUS, type ErrorCode } from "../lib/errors.ts";
import type { HttpResponse, RunnerMessage, RunnerReply, RunnerRequest } from "./protocol.ts";
import { lowerPriority } from "./runner-priority.ts";
import { RUNNER_CACHE_DIR, runnerEntry } from "./runner-entry.ts";
import { batchesOf, type RunnerAnswer, type RunnerAsk, type RunnerQuestion, type RunnerEnvelope, type RunnerTell, type RunnerSettings, type RunnerStarted } from "./ipc.ts";
import { bufferPackageDirs } from "./sandbox/buffer-source.ts";
import { webStreamsPackageDir } from "./sandbox/web-streams-source.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const packageDir = (name: string, from = import.meta.url) => dirname(createRequire(from).resolve(`${name}/package.json`));
const IVM_DIR = packageDir("isolated-vm");

// What the runner may read: its own code and the packages it loads, nothing else of the
// repository. Not the whole repository: the default data directory (./data, with the secret key
// and the database) lives there, and so may .git or an operator's .env.
const READABLE = [
  join(REPO_ROOT, "src"),
  join(REPO_ROOT, "package.json"),
  RUNNER_CACHE_DIR,
  IVM_DIR,
  packageDir("node-gyp-build", pathToFileURL(join(IVM_DIR, "package.json")).href),
  packageDir("undici"),
  // an error's stack in a bundle, back to the user's lines (sandbox/stack-map.ts)
  packageDir("@jridgewell/sourcemap-codec"),
  // the isolate's Buffer global (sandbox/buffer-source.ts)
  ...bufferPackageDirs(),
  // the isolate's stream globals (sandbox/web-streams-source.ts)
  webStreamsPackageDir(),
];

const EXEC_ARGV = [
  "--permission",
  ...READABLE.map((p) => `--allow-fs-read=${p}`),
  // node-gyp-build probes this file to pick isolated-vm's prebuilt binary.
  "--allow-fs-read=/etc/alpine-release",
  // isolated-vm is a native addon; without this the runner can't load it.
  "--allow-addons",
  // isolated-vm requires it on Node >= 20.
  "--no-node-snapshot",
  // "--allow-addons may invalidate the permission model": known and accepted, don't print it per fork.
  "--disable-warning=PERM0001",
  // Components get no WebAssembly (isolate/runtime.js); should one ever reach it, a Memory is
  // capped at 2,048 pages of 64 KiB, the isolate's own limit, since it lives outside that heap.
  "--wasm-max-mem-pages=2048",
];

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

interface Pending {
  msg: RunnerMessage;
  opts: RequestOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** its deadline, armed once it is the oldest pending request of its key (or at once, keyless) */
  timer: NodeJS.Timeout | undefined;
  /** the runner it went to; undefined while it is held back (#hold) */
  child: ChildProcess | undefined;
  /** sent again after a runner death: once for a kill of ours, once more for durable work */
  retried: boolean;
  crashes: number;
  /** the runner said it started on the component's part (retryUnstarted) */
  started: boolean;
}

interface ChildState {
  pending: number;
  /** pending requests per key on this child */
  keys: Map<string, number>;
  retiring: boolean;
  /** it has sent something (so it has started its threads, whose priority is set then) */
  spoke: boolean;
}

export class RunnerProcess {
  #entry: string;
  #settings: RunnerSettings | undefined;
  #maxRss: number;
  #idleMs: number;
  readonly #nice: number;
  readonly #answer: RunnerProcessOptions["answer"];
  #idleTimer: NodeJS.Timeout | undefined;
  #child: ChildProcess | null = null;
  #pending = new Map<number, Pending>();
  /** pending request ids per key, oldest first: only the oldest has its deadline running */
  readonly #queues = new Map<string, number[]>();
  #children = new Map<ChildProcess, ChildState>();
  #killedByHost = new WeakSet<ChildProcess>();
  #nextId = 1;
  #closed = false;
  /** requests of a key held back until the retiring runner holding its earlier ones is done with them */
  readonly #held = new Map<string, Pending[]>();
  readonly #outbox = new Map<ChildProcess, RunnerMessage[]>();
  /** runners started so far, the first included (a metric: restarts = started - 1) */
  started = 0;
  /** the RSS the current runner last reported, bytes */
  lastRss = 0;

  constructor(opts: RunnerProcessOptions = {}) {
    this.#entry = opts.entry ?? runnerEntry();
    this.#settings = opts.settings;
    this.#maxRss = opts.maxRssBytes ?? 0;
    this.#idleMs = opts.idleMs ?? 0;
    this.#nice = opts.nice ?? 0;
    this.#answer = opts.answer;
  }

  /** the current runner's process id (none between an idle stop and the next request) */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** whether a runner process is up now (not between an idle stop and the next request) */
  get running(): boolean {
    return this.#child !== null;
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
        retried: false,
        crashes: 0,
        started: false,
      };
      this.#pending.set(id, pending);
      this.#enqueue(id, pending);
      this.#dispatch(pending);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    for (const [id, p] of this.#pending) this.#settle(id, p, new AppError("unavailable", "sandbox runner closed"));
    this.#child = null;
    const alive = [...this.#children.keys()].filter((c) => c.exitCode === null && c.signalCode === null);
    await Promise.all(
      alive.map((child) => {
        // Ref'd again so that awaiting close() really waits for the exit.
        child.ref();
        const exited = new Promise<void>((done) => child.once("exit", () => done()));
        child.kill("SIGKILL");
        return exited;
      }),
    );
  }

  // A key's requests go where its earlier ones still are (so they run in order), except to a
  // runner being retired: there they wait until its earlier ones are done, and then go to the new
  // runner. Before, a source always busy kept its retiring runner alive for ever.
  // Held too: behind requests of the key held already, and while the runner holding its earlier
  // ones is gone but its death not yet handled (they are sent again then, and must stay first).
  #dispatch(p: Pending): void {
    const key = p.opts.key;
    const holder = key === undefined ? undefined : this.#holderOf(key);
    const held = key === undefined ? undefined : this.#held.get(key);
    if (key !== undefined && (held || (holder && (this.#children.get(holder)?.retiring || !holder.connected)))) {
      if (held) held.push(p);
      else this.#held.set(key, [p]);
      return;
    }
    p.child = holder ?? this.#ensureChild();
    this.#track(p, 1);
    this.#send(p);
  }

  #holderOf(key: string): ChildProcess | undefined {
    for (const [child, state] of this.#children) if ((state.keys.get(key) ?? 0) > 0) return child;
    return undefined;
  }

  /** a key has nothing left on a retiring runner: what was held for it goes out, in order */
  #release(key: string): void {
    const held = this.#held.get(key);
    if (!held || this.#closed) return;
    this.#held.delete(key);
    for (const p of held) if (this.#pending.has(p.msg.id)) this.#dispatch(p);
  }

  #track(p: Pending, delta: 1 | -1): void {
    if (!p.child) return;
    const state = this.#children.get(p.child);
    if (!state) return;
    state.pending += delta;
    const key = p.opts.key;
    if (key !== undefined) {
      const n = (state.keys.get(key) ?? 0) + delta;
      if (n > 0) state.keys.set(key, n);
      else {
        state.keys.delete(key);
        if (state.retiring) this.#release(key);
      }
    }
    if (state.retiring && state.pending === 0) this.#kill(p.child);
    if (this.#idleMs > 0 && p.child === this.#child) {
      clearTimeout(this.#idleTimer);
      this.#idleTimer = undefined;
      if (state.pending === 0) {
        const child = p.child;
        this.#idleTimer = setTimeout(() => {
          if (this.#children.get(child)?.pending === 0) this.#kill(child);
        }, this.#idleMs);
        this.#idleTimer.unref();
      }
    }
  }

  // A source's requests queue in the runner behind one another (sandbox/invoke.ts chains them):
  // with a deadline from the moment it was sent, the 200th run of a burst timed out while it
  // waited for the 199 before it, and the runner was killed under every other source's work.
  #enqueue(id: number, p: Pending): void {
    const key = p.opts.key;
    if (key === undefined) return this.#arm(id, p);
    const queue = this.#queues.get(key);
    if (queue) queue.push(id);
    else {
      this.#queues.set(key, [id]);
      this.#arm(id, p);
    }
  }

  #dequeue(id: number, p: Pending): void {
    const key = p.opts.key;
    const queue = key === undefined ? undefined : this.#queues.get(key);
    if (!queue) return;
    const at = queue[0] === id ? 0 : queue.indexOf(id);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) {
      this.#queues.delete(key!);
      return;
    }
    const head = this.#pending.get(queue[0]);
    if (head && head.timer === undefined) this.#arm(queue[0], head);
  }

  #arm(id: number, p: Pending): void {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => this.#overrun(id), p.opts.deadlineMs);
  }

  #ensureChild(): ChildProcess {
    if (this.#child) return this.#child;
    const child = fork(this.#entry, this.#settings ? [JSON.stringify(this.#settings)] : [], {
      execPath: process.execPath,
      execArgv: EXEC_ARGV,
      // The runner needs no configuration and must not see the service's secrets.
      env: {},
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    this.started++;
    lowerPriority(child.pid, this.#nice);
    // An idle runner must not keep the host alive; pending requests do, through their timers.
    child.unref();
    child.channel?.unref();
    child.on("message", (m: unknown) => this.#onMessage(child, m));
    // Its death is handled once its channel is closed too, so every reply it wrote before dying
    // has been read: 'exit' can come while the pipe still holds some, and a finished durable run
    // would then run again.
    // No new work goes to it once either is seen.
    let exited = false;
    let disconnected = false;
    const gone = () => {
      if (this.#child === child) this.#child = null;
      if (exited && disconnected) this.#onDeath(child);
    };
    child.once("disconnect", () => {
      disconnected = true;
      gone();
      // a runner that let go of its channel is of no use: it goes, and its work with it
      if (!exited) setTimeout(() => child.kill("SIGKILL"), 2000).unref();
    });
    child.once("exit", () => {
      exited = true;
      disconnected ||= !child.connected;
      gone();
      // a channel that never closes (it can't, with the process gone, but the host must not hang on it)
      setTimeout(() => this.#onDeath(child), 2000).unref();
    });
    child.once("error", () => this.#onDeath(child));
    this.#children.set(child, { pending: 0, keys: new Map(), retiring: false, spoke: false });
    this.#child = child;
    return child;
  }

  // Requests made in one tick go to the runner as one message (DESIGN §5: batched, never one
  // round trip per item): under load that is one write per tick instead of one per invocation.
  // Sent once the tick's promise jobs are done (nextTick), not on the loop's next turn
  // (setImmediate): a commit that resolves a group of workflow steps starts every next step in
  // those jobs, and under load a turn of the loop (every open connection's reads) took a
  // millisecond or more, on each step of every run (3-step bench: +20% runs/s).
  #send(p: Pending): void {
    const child = p.child!;
    let box = this.#outbox.get(child);
    if (!box) {
      this.#outbox.set(child, (box = []));
      process.nextTick(() => this.#flush(child));
    }
    box.push(p.msg);
  }

  #flush(child: ChildProcess): void {
    const box = this.#outbox.get(child);
    this.#outbox.delete(child);
    if (!box || !child.connected) return;
    for (const batch of batchesOf(box, requestBytes)) this.#write(child, batch);
  }

  // Serialising happens inside child.send and throws synchronously for a message JSON can't
  // carry. That must never escape into the event loop: the batch is split, and a request that
  // can't be sent alone fails by itself.
  #write(child: ChildProcess, batch: RunnerMessage[]): void {
    try {
      // A failed send means the runner is gone; its exit handler fails or retries the requests.
      child.send(batch, (err) => {
        if (err && child.connected) child.kill("SIGKILL");
      });
    } catch (e) {
      if (batch.length > 1) {
        for (const m of batch) this.#write(child, [m]);
        return;
      }
      const p = this.#pending.get(batch[0].id);
      const why = e instanceof Error ? e.message : String(e);
      if (p) this.#settle(batch[0].id, p, new Error(`InternalError: the request could not be sent to the sandbox: ${why}`));
    }
  }

  #onMessage(child: ChildProcess, raw: unknown): void {
    const state = this.#children.get(child);
    if (state && !state.spoke) {
      state.spoke = true;
      lowerPriority(child.pid, this.#nice);
    }
    if (Array.isArray(raw)) {
      for (const m of raw) this.#onReply(m);
      return;
    }
    const started = (raw as Partial<RunnerStarted> | null)?.started;
    if (typeof started === "number") {
      const p = this.#pending.get(started);
      if (p) p.started = true;
      return;
    }
    const envelope = raw as RunnerEnvelope;
    if (envelope && Array.isArray(envelope.replies)) {
      // news first: a response told while its invocation ran must reach it before its reply
      // (from the same tick) settles the request, after which nobody listens
      if (Array.isArray(envelope.tells)) for (const t of envelope.tells) this.#onTell(child, t);
      for (const m of envelope.replies) this.#onReply(m);
      if (Array.isArray(envelope.asks)) for (const a of envelope.asks) this.#onAsk(child, a);
      if (typeof envelope.rss === "number") this.#onRss(child, envelope.rss);
      return;
    }
    this.#onReply(raw);
  }

  // The runner is ours, but what it relays comes from the sandbox: the store must be one the
  // request it asks for named, and that request must still be pending on this runner.
  #onAsk(child: ChildProcess, ask: RunnerQuestion): void {
    const reply = (a: RunnerAnswer) => {
      if (child.connected) child.send(a, undefined, {}, () => {});
    };
    if (typeof ask !== "object" || ask === null || typeof ask.ask !== "number") return;
    const p = this.#pending.get(ask.req);
    if ("env" in ask) {
      const mine = p && p.child === child && p.msg.type === "invoke" && p.msg.envVersion === ask.env ? p.opts.env : undefined;
      reply(mine ? { answer: ask.ask, ok: true, value: mine() } : { answer: ask.ask, ok: false, message: "no such environment variables" });
      return;
    }
    if ("code" in ask) {
      const mine = p && p.child === child && p.msg.type === "invoke" && p.msg.codeHash === ask.code ? p.opts.code : undefined;
      if (mine) reply({ answer: ask.ask, ok: true, value: mine() });
      else reply({ answer: ask.ask, ok: false, message: "no such code" });
      return;
    }
    const named = p && p.child === child && p.msg.type === "invoke" ? (p.msg.dataStores ?? []) : [];
    if (typeof ask.store !== "string" || !named.includes(ask.store) || !this.#answer) {
      reply({ answer: ask.ask, ok: false, message: "this invocation can't read that data store" });
      return;
    }
    this.#answer(ask).then(
      (value) => reply({ answer: ask.ask, ok: true, value }),
      (e: unknown) => reply({ answer: ask.ask, ok: false, message: e instanceof AppError ? e.message : "the data store could not be read (the service's store is unavailable)" }),
    );
  }

  #onTell(child: ChildProcess, tell: RunnerTell): void {
    if (typeof tell !== "object" || tell === null) return;
    const p = this.#pending.get(tell.req);
    if (!p || p.child !== child || !p.opts.onTell) return;
    try {
      p.opts.onTell(tell.response);
    } catch {
      // a listener's failure is its own: the invocation goes on
    }
  }

  #onRss(child: ChildProcess, rss: number): void {
    if (child === this.#child) this.lastRss = rss;
    const state = this.#children.get(child);
    if (this.#maxRss <= 0 || rss <= this.#maxRss || !state || state.retiring) return;
    state.retiring = true;
    if (this.#child === child) this.#child = null;
    if (state.pending === 0) this.#kill(child);
  }

  #onReply(raw: unknown): void {
    const m = raw as RunnerReply;
    const p = typeof m?.id === "number" ? this.#pending.get(m.id) : undefined;
    if (!p) return;
    if (m.ok) return this.#settle(m.id, p, undefined, m.result);
    const code: ErrorCode = Object.hasOwn(ERROR_STATUS, m.code) ? (m.code as ErrorCode) : "internal";
    this.#settle(m.id, p, new AppError(code, String(m.message)));
  }

  #overrun(id: number): void {
    const p = this.#pending.get(id);
    if (!p) return;
    if (p.opts.retryUnstarted && !p.started && !p.retried && p.child) {
      // not the component's doing: its runner goes, and it is tried again, innocent (#onDeath)
      p.timer = setTimeout(() => this.#overrun(id), p.opts.deadlineMs);
      if (p.child) this.#kill(p.child);
      return;
    }
    const child = p.child;
    this.#settle(id, p, p.opts.onTimeout());
    if (child) this.#kill(child);
  }

  #kill(child: ChildProcess): void {
    this.#killedByHost.add(child);
    if (this.#child === child) this.#child = null;
    child.kill("SIGKILL");
  }

  #onDeath(child: ChildProcess): void {
    if (!this.#children.has(child)) return;
    if (this.#child === child) this.#child = null;
    this.#children.delete(child);
    this.#outbox.delete(child);
    // When the host killed the runner for one request's deadline, the others on it were innocent:
    // they get one more try on a fresh runner. When it died by itself, the culprit is unknown:
    // durable work runs once more, and what dies twice fails.
    const innocent = this.#killedByHost.has(child);
    const again: Pending[] = [];
    for (const [id, p] of this.#pending) {
      if (p.child !== child) continue;
      if (this.#closed) this.#settle(id, p, p.opts.onCrash());
      else if (innocent && !p.retried) {
        p.retried = true;
        again.push(p);
      } else if (!innocent && p.opts.retryOnCrash && p.crashes === 0) {
        p.crashes++;
        again.push(p);
      } else {
        this.#settle(id, p, p.opts.onCrash());
      }
    }
    // what was held follows the requests sent again, which were sent first
    const held = [...this.#held.values()].flat();
    this.#held.clear();
    // in the order they were first sent (ids grow), so a key's requests keep their order
    for (const p of again.sort((a, b) => a.msg.id - b.msg.id)) {
      if (p.opts.resend) p.msg = { ...p.opts.resend(), id: p.msg.id };
      // a fresh runner starts it over: so does its deadline (if it is running)
      if (p.timer !== undefined) this.#arm(p.msg.id, p);
      p.child = undefined;
      this.#dispatch(p);
    }
    for (const p of held) if (this.#pending.has(p.msg.id)) this.#dispatch(p);
  }

  #unhold(p: Pending): void {
    const key = p.opts.key;
    const held = key === undefined ? undefined : this.#held.get(key);
    if (!held) return;
    const at = held.indexOf(p);
    if (at >= 0) held.splice(at, 1);
    if (held.length === 0) this.#held.delete(key!);
  }

  #settle(id: number, p: Pending, error: Error | undefined, result?: unknown): void {
    this.#pending.delete(id);
    clearTimeout(p.timer);
    this.#dequeue(id, p);
    if (!p.child) this.#unhold(p);
    this.#track(p, -1);
    if (error) p.reject(error);
    else p.resolve(result);
  }
}

// What a request weighs on the channel: its event and code, the rest is small.
function requestBytes(m: RunnerMessage): number {
  const { code, eventJson } = m as { code?: unknown; eventJson?: unknown };
  return 1024 + (typeof code === "string" ? code.length : 0) + (typeof eventJson === "string" ? eventJson.length : 0);
}
