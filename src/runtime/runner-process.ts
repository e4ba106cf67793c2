// Host side of one runner process: a forked Node that runs component code in isolates, walled in
// by Node's permission model. The host never trusts the runner to answer: each request carries a
// wall-clock deadline, and a runner that overruns one (or dies) is replaced on the next request.
import { fork, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { AppError, ERROR_STATUS, type ErrorCode } from "../lib/errors.ts";
import type { RunnerMessage, RunnerReply, RunnerRequest } from "./protocol.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const DEFAULT_ENTRY = resolve(import.meta.dirname, "sandbox/runner-main.ts");

const EXEC_ARGV = [
  "--permission",
  `--allow-fs-read=${REPO_ROOT}`,
  // node-gyp-build probes this file to pick isolated-vm's prebuilt binary.
  "--allow-fs-read=/etc/alpine-release",
  // isolated-vm is a native addon; without this the runner can't load it.
  "--allow-addons",
  // isolated-vm requires it on Node >= 20.
  "--no-node-snapshot",
  // "--allow-addons may invalidate the permission model": known and accepted, don't print it per fork.
  "--disable-warning=PERM0001",
];

export interface RunnerProcessOptions {
  /** the runner's entry file; tests substitute a fake runner */
  entry?: string;
}

export interface RequestOptions {
  /** host-side wall-clock limit; on overrun the runner process is killed */
  deadlineMs: number;
  /** the error this request fails with when its deadline passes */
  onTimeout: () => Error;
  /** the error this request fails with when the runner dies under it */
  onCrash: () => Error;
}

interface Pending {
  msg: RunnerMessage;
  opts: RequestOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  child: ChildProcess;
  /** re-sent once already after a runner we killed for another request's deadline */
  retried: boolean;
}

export class RunnerProcess {
  #entry: string;
  #child: ChildProcess | null = null;
  #pending = new Map<number, Pending>();
  #killedByHost = new WeakSet<ChildProcess>();
  #nextId = 1;
  #closed = false;
  readonly #outbox = new Map<ChildProcess, RunnerMessage[]>();

  constructor(opts: RunnerProcessOptions = {}) {
    this.#entry = opts.entry ?? DEFAULT_ENTRY;
  }

  request<T>(req: RunnerRequest, opts: RequestOptions): Promise<T> {
    if (this.#closed) return Promise.reject(new AppError("unavailable", "sandbox runner is closed"));
    return new Promise<T>((resolve, reject) => {
      const id = this.#nextId++;
      const child = this.#ensureChild();
      const pending: Pending = {
        msg: { ...req, id },
        opts,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: setTimeout(() => this.#overrun(id), opts.deadlineMs),
        child,
        retried: false,
      };
      this.#pending.set(id, pending);
      this.#send(pending);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const [id, p] of this.#pending) this.#settle(id, p, new AppError("unavailable", "sandbox runner closed"));
    const child = this.#child;
    this.#child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    // Ref'd again so that awaiting close() really waits for the exit.
    child.ref();
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.kill("SIGKILL");
    await exited;
  }

  #ensureChild(): ChildProcess {
    if (this.#child) return this.#child;
    const child = fork(this.#entry, [], {
      execPath: process.execPath,
      execArgv: EXEC_ARGV,
      // The runner needs no configuration and must not see the service's secrets.
      env: {},
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    // An idle runner must not keep the host alive; pending requests do, through their timers.
    child.unref();
    child.channel?.unref();
    child.on("message", (m: unknown) => this.#onMessage(m));
    child.once("exit", () => this.#onDeath(child));
    child.once("error", () => this.#onDeath(child));
    this.#child = child;
    return child;
  }

  // Requests made in one tick go to the runner as one message (DESIGN §5: batched, never one
  // round trip per item): under load that is one write per tick instead of one per invocation.
  #send(p: Pending): void {
    let box = this.#outbox.get(p.child);
    if (!box) {
      this.#outbox.set(p.child, (box = []));
      setImmediate(() => this.#flush(p.child));
    }
    box.push(p.msg);
  }

  #flush(child: ChildProcess): void {
    const box = this.#outbox.get(child);
    this.#outbox.delete(child);
    if (!box || !child.connected) return;
    // A failed send means the runner is gone; its exit handler fails or retries the requests.
    child.send(box, (err) => {
      if (err && child.connected) child.kill("SIGKILL");
    });
  }

  #onMessage(raw: unknown): void {
    if (Array.isArray(raw)) for (const m of raw) this.#onReply(m);
    else this.#onReply(raw);
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
    this.#settle(id, p, p.opts.onTimeout());
    this.#kill(p.child);
  }

  #kill(child: ChildProcess): void {
    this.#killedByHost.add(child);
    if (this.#child === child) this.#child = null;
    child.kill("SIGKILL");
  }

  #onDeath(child: ChildProcess): void {
    if (this.#child === child) this.#child = null;
    // When the host killed the runner for one request's deadline, the others on it were innocent:
    // they get one more try on a fresh runner. When it died by itself, the culprit is unknown.
    const innocent = this.#killedByHost.has(child);
    for (const [id, p] of this.#pending) {
      if (p.child !== child) continue;
      if (innocent && !p.retried && !this.#closed) {
        p.retried = true;
        p.child = this.#ensureChild();
        this.#send(p);
      } else {
        this.#settle(id, p, p.opts.onCrash());
      }
    }
  }

  #settle(id: number, p: Pending, error: Error | undefined, result?: unknown): void {
    this.#pending.delete(id);
    clearTimeout(p.timer);
    if (error) p.reject(error);
    else p.resolve(result);
  }
}
