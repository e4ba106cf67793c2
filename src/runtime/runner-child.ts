// One runner process as the host sees it: forked walled in (runner-permissions.ts), the requests
// of a tick written to its channel as one message, its messages handed on undecoded, and its
// death told once, after everything it wrote before dying has been read.
import { fork, type ChildProcess } from "node:child_process";
import { batchesOf, type RequestMessage, type RequestsMessage, type RunnerAnswer, type RunnerSettings } from "./ipc.ts";
import { lowerPriority } from "./runner-priority.ts";
import { RUNNER_EXEC_ARGV } from "./runner-permissions.ts";

export interface RunnerChildOptions {
  entry: string;
  settings: RunnerSettings | undefined;
  /** its CPU priority below the service's (runner-priority.ts) */
  nice: number;
}

export interface RunnerChildEvents {
  /** a message read off its channel, as it came (RunnerProcess decodes it) */
  message(child: RunnerChild, message: unknown): void;
  /** it takes no new work from now on: its channel closed or it exited (its death may come later) */
  leaving(child: RunnerChild): void;
  /** it is gone, and every reply it wrote before has been read; told once */
  death(child: RunnerChild): void;
  /** request `id` can't be sent even alone (JSON can't carry it): it fails by itself */
  unsendable(id: number, error: Error): void;
}

export class RunnerChild {
  readonly #process: ChildProcess;
  readonly #nice: number;
  readonly #events: RunnerChildEvents;
  /** requests posted this tick, written together once its promise jobs are done */
  #outbox: RequestMessage[] | undefined;
  /** it has sent something (so it has started its threads, whose priority is set then) */
  #spoke = false;
  #dead = false;
  /** the host killed it (a deadline, idleness, retirement): its other requests were innocent */
  killedByHost = false;

  constructor(opts: RunnerChildOptions, events: RunnerChildEvents) {
    this.#nice = opts.nice;
    this.#events = events;
    const child = fork(opts.entry, opts.settings ? [JSON.stringify(opts.settings)] : [], {
      execPath: process.execPath,
      execArgv: RUNNER_EXEC_ARGV,
      // The runner needs no configuration and must not see the service's secrets.
      env: {},
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    this.#process = child;
    lowerPriority(child.pid, this.#nice);
    // An idle runner must not keep the host alive; pending requests do, through their timers.
    child.unref();
    child.channel?.unref();
    child.on("message", (message: unknown) => this.#onMessage(message));
    this.#watchDeath();
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** its channel is open: what is sent to it now can still be answered */
  get connected(): boolean {
    return this.#process.connected;
  }

  // Requests made in one tick go to the runner as one message: under load that is one write per
  // tick instead of one per invocation. Sent once the tick's promise jobs are done (nextTick),
  // not on the loop's next turn (setImmediate): a commit that resolves a group of workflow steps
  // starts every next step in those jobs, and under load a turn of the loop (every open
  // connection's reads) took a millisecond or more, on each step of every run (3-step bench:
  // +20% runs/s).
  post(message: RequestMessage): void {
    if (!this.#outbox) {
      this.#outbox = [];
      process.nextTick(() => this.#flush());
    }
    this.#outbox.push(message);
  }

  answer(answer: RunnerAnswer): void {
    if (this.#process.connected) this.#process.send(answer, undefined, {}, () => {});
  }

  /** the host ends it (SIGKILL); its death is told as any other */
  kill(): void {
    this.killedByHost = true;
    this.#process.kill("SIGKILL");
  }

  /** ends it for good, and resolves once it has exited */
  async stop(): Promise<void> {
    const child = this.#process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Ref'd again so that awaiting close() really waits for the exit.
    child.ref();
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.kill("SIGKILL");
    await exited;
  }

  #onMessage(message: unknown): void {
    if (!this.#spoke) {
      this.#spoke = true;
      lowerPriority(this.#process.pid, this.#nice);
    }
    this.#events.message(this, message);
  }

  // Its death is handled once its channel is closed too, so every reply it wrote before dying has
  // been read: 'exit' can come while the pipe still holds some, and a finished durable run would
  // then run again. No new work goes to it once either is seen.
  #watchDeath(): void {
    const child = this.#process;
    let exited = false;
    let disconnected = false;
    const gone = () => {
      this.#events.leaving(this);
      if (exited && disconnected) this.#die();
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
      setTimeout(() => this.#die(), 2000).unref();
    });
    child.once("error", () => this.#die());
  }

  #die(): void {
    if (this.#dead) return;
    this.#dead = true;
    // what was posted and not yet written goes with it: RunnerProcess sends it again elsewhere
    this.#outbox = undefined;
    this.#events.death(this);
  }

  #flush(): void {
    const box = this.#outbox;
    this.#outbox = undefined;
    if (!box || !this.#process.connected) return;
    for (const batch of batchesOf(box, requestBytes)) this.#write(batch);
  }

  // Serialising happens inside send and throws synchronously for a message JSON can't carry. That
  // must never escape into the event loop: the batch is split, and a request that can't be sent
  // alone fails by itself.
  #write(batch: RequestMessage[]): void {
    const child = this.#process;
    try {
      const message: RequestsMessage = { t: "requests", requests: batch };
      // A failed send means the runner is gone; its death fails or retries the requests.
      child.send(message, (err) => {
        if (err && child.connected) child.kill("SIGKILL");
      });
    } catch (e) {
      if (batch.length > 1) {
        for (const request of batch) this.#write([request]);
        return;
      }
      const why = e instanceof Error ? e.message : String(e);
      this.#events.unsendable(batch[0].id, new Error(`InternalError: the request could not be sent to the sandbox: ${why}`));
    }
  }
}

// What a request weighs on the channel: its event and code, the rest is small.
function requestBytes(request: RequestMessage): number {
  const { code, eventJson } = request as { code?: unknown; eventJson?: unknown };
  return 1024 + (typeof code === "string" ? code.length : 0) + (typeof eventJson === "string" ? eventJson.length : 0);
}
