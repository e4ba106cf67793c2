import type { HttpResponse, InvocationError, InvokeResult } from "../../runtime/protocol.ts";
import DataLoader from "dataloader";
import type { RunRow, RunStepRow, Store } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { newId } from "../../lib/ids.ts";
import { triggerOf, type Committed, type InvokeOptions, type StepInvocation, type StepRunInfo, type Target } from "../runtime/target.ts";
import { loadedRunState, newRunState, resultsBefore, takeRows, stepContext, type RunState } from "./run-record.ts";
import { phaseOf, transition, type Next, type RunEvent } from "./run-machine.ts";
import { runsAgainLater } from "../runtime/poison.ts";
import { waitUrls } from "./run-wait.ts";
import { RunGate, type Admission } from "./run-gate.ts";
import { RunHolds } from "./run-holds.ts";
import { sendRows } from "./run-sends.ts";

// Runs a workflow run step by step (docs/writing-workflows.md): each step is an invocation of its own whose
// result commits (its events, its row, the run's state) before the next step starts, so a crash
// never loses an ended step nor runs a committed one again. The first step's commit also consumes
// what triggered the run (its inbox row, delivery or timer tick); from then on the run's row is
// the durable record, and a run that waits (delay, suspend, rerun, retry) or was cut short by a
// stop is taken up again by the RunWaker (run-waker.ts) on whichever node holds its partition.
//
// Between steps the runner is free for other runs of the workflow: its steps queue with theirs,
// so a busy workflow keeps its runner busy while each step's commit is written.

const MAX_RUN_LOG_LINES = 1000;

export interface RunDriverDeps {
  store: Store;
  secrets: SecretBox;
  publicUrl: string;
  version: string;
  /** the first retry's backoff, doubling after (TRIBUTARY_RUN_RETRY_MS, 10 s) */
  retryBaseMs: number;
  /** invokes a step and commits its result; resolves once committed, with what the run does next */
  step: (target: Target, opts: InvokeOptions, step: StepInvocation) => Promise<Committed>;
  /** commits what a run did without running a step (a suspension's timeout, a run's end) */
  settleOnly: (target: Target, opts: InvokeOptions, result: InvokeResult, step: StepInvocation) => Promise<void>;
  /** whether $.send.email can send (TRIBUTARY_SMTP_URL is set) */
  email: boolean;
  /** whether results of the emitter are no longer committed (the service stops, it was deleted) */
  halted: (emitterId: string) => boolean;
  /** a commit here made a run wait until `dueAtMs`: the waker (run-waker.ts) takes it up then */
  wake: (dueAtMs: number) => void;
  /** the workflow as one of its deployments runs (undefined: that deployment is no longer kept) */
  deployment: (target: Target, deploymentId: string) => Promise<Target | undefined>;
  log: (err: unknown, what: string) => void;
}

/**
 * Whether a step's code can call $.flow (and so needs its resume and cancel URLs): its code names
 * `flow` somewhere. Code that reaches $.flow without writing the word (`$["fl" + "ow"]`) still
 * waits as asked; its URLs are then undefined.
 */
const flowSteps = new WeakMap<object, boolean>();
function mayWait(step: { code: string; bundle?: string | null } | undefined): boolean {
  if (!step) return false;
  let known = flowSteps.get(step);
  if (known === undefined) flowSteps.set(step, (known = step.code.includes("flow") || (step.bundle ?? "").includes("flow")));
  return known;
}

export interface RunOptions extends InvokeOptions {
  /** custom_response: told the reply once the step that gave it has committed */
  respond?: (response: HttpResponse) => void;
}

export class RunDriver {
  readonly #d: RunDriverDeps;
  /** runs this node drives now: the waker doesn't take them up twice */
  readonly #inFlight = new Set<string>();
  /** runs cancelled while this node drove them: they stop before their next step */
  readonly #cancelled = new Set<string>();
  /** settings.concurrency and rate of the workflows driven here */
  readonly #gate = new RunGate();
  /** runs back from a wait that found their workflow full */
  readonly #holds = new RunHolds();

  // A scan takes up hundreds of due runs at once; each claims its run and reads its steps. Those
  // reads and writes are gathered per turn of the event loop into one statement each (100,000
  // runs resuming together made 2 statements a run the store's bottleneck).
  readonly #claims: DataLoader<{ id: string; status: RunRow["status"]; wait: string | null }, boolean, string>;
  readonly #steps: DataLoader<string, RunStepRow[]>;

  constructor(deps: RunDriverDeps) {
    this.#d = deps;
    const batching = { cache: false, batchScheduleFn: (go: () => void) => setImmediate(go), maxBatchSize: 512 };
    this.#claims = new DataLoader(async (runs) => {
      const claimed = await deps.store.runs.claimMany(runs, Date.now());
      return runs.map((result) => claimed.has(result.id));
    }, batching);
    this.#steps = new DataLoader(async (ids) => {
      const steps = await deps.store.runs.stepsOf(ids);
      return ids.map((id) => steps.get(id) ?? []);
    }, batching);
  }

  inFlight(runId: string): boolean {
    return this.#inFlight.has(runId);
  }

  /** The run was cancelled (its row says so already): it stops before its next step here. */
  cancelled(runId: string): void {
    if (this.#inFlight.has(runId)) this.#cancelled.add(runId);
  }

  /**
   * A new run of `target`'s workflow. Resolves when it has ended or waits; rejects only when its first
   * step's commit failed (what triggered it is still there, and runs again).
   */
  async start(target: Target, eventJson: string | undefined, opts: RunOptions): Promise<InvokeResult> {
    const workflow = target.workflow!;
    const state = newRunState(
      workflow,
      target.user.id,
      {
        id: newId("r_"),
        startedAt: Date.now(),
        trigger: triggerOf(opts),
        eventJson,
        ...(opts.delivery?.emitterId ? { emitterId: opts.delivery.emitterId } : {}),
      },
      this.#d.version,
    );
    // behind runs already waiting for room it waits too, even with a place free now
    const behind = this.#gate.queueAhead(workflow);
    const admitted: Admission = behind ? { ok: false, retryAt: null } : this.#gate.tryStart(workflow, Date.now());
    if (!admitted.ok) {
      // it waits in the store, queued, consuming what triggered it: the rest wait durably in order
      const { next } = transition(workflow, state, { type: "turnedAway", retryAt: admitted.retryAt }, Date.now());
      await this.#d.settleOnly(target, opts, emptyResult(), this.#invocation(target, state, next, { newRun: true }));
      if (admitted.retryAt !== null) this.#d.wake(admitted.retryAt);
      else {
        this.#gate.enqueued(workflow);
        // the place it didn't take goes to the oldest queued run
        if (behind) void this.#startQueued(target);
      }
      return emptyResult();
    }
    try {
      const { next } = transition(workflow, state, { type: "admitted" }, Date.now());
      if (next.kind !== "step") {
        await this.#d.settleOnly(target, opts, emptyResult(), this.#invocation(target, state, next, { newRun: true }));
        return emptyResult();
      }
      return await this.#drive(target, state, next, opts, true);
    } finally {
      this.#runEnded(target);
    }
  }

  /**
   * Takes up a run the store says is due (or orphaned, or queued): its next step, a timeout, or
   * its end. `reserved`: a queued run the caller has counted in the gate already.
   */
  async resume(target: Target, row: RunRow, reserved = false): Promise<void> {
    const workflow = target.workflow!;
    if (this.#inFlight.has(row.id)) {
      if (reserved) this.#runEnded(target);
      return;
    }
    this.#inFlight.add(row.id);
    let counted = reserved;
    try {
      const read = phaseOf(row);
      // A run a stopped node left executing counts at once, before its row is read again: a queued
      // run taken up in the same scan (after a restart, a takeover) must not start beside it while
      // that read is on its way (PostgreSQL answers reads in any order).
      if (!counted && row.status === "running" && row.due_at_ms === null) {
        this.#gate.busy(workflow);
        counted = true;
      }
      // A row a scan read may be older than a step this node committed since (that step must not
      // run again). A waiting run's is checked by its claim below (the claim needs the status and
      // wait it read, and every commit that moves a run on changes them), a queued one's too (read
      // again, queued runs reached the gate in the order those reads came back, not the order they
      // came in); any other is read again.
      const fresh = row.due_at_ms !== null || read.kind === "queued" ? row : await this.#d.store.runs.byId(row.id);
      const now = Date.now();
      const phase = fresh && phaseOf(fresh);
      if (!fresh || !phase || phase.kind === "ended") return;
      // waiting for room, or claimed so by a node that stopped before the run's first step
      const queued = phase.kind === "queued" || (phase.kind === "waking" && phase.wait.kind === "queued");
      // a queued run may be taken up with no due time (a run of its workflow ended)
      if (fresh.due_at_ms !== null ? fresh.due_at_ms > now : fresh.status !== "running" && !queued) return;
      if (queued && !counted) {
        const admitted = this.#gate.tryStart(workflow, now);
        if (!admitted.ok) {
          if (admitted.retryAt !== null && fresh.wait !== null) {
            await this.#d.store.runs.postpone(fresh.id, { status: fresh.status, wait: fresh.wait, due_at_ms: fresh.due_at_ms }, admitted.retryAt);
            this.#d.wake(admitted.retryAt);
          }
          return;
        }
      } else if (!queued && !counted) {
        // A run back from a wait wasn't executing while it waited: it goes on only while its
        // workflow has room (settings.concurrency), else it waits a little longer (run-holds.ts).
        // An orphan of a node that stopped was executing: it counts, and goes on.
        if (!backFromWait(phase)) this.#gate.busy(workflow);
        else if (this.#gate.tryContinue(workflow)) this.#holds.admitted(workflow.id, fresh.id);
        else {
          const retryAt = this.#holds.retryAt(workflow.id, fresh.id, now);
          if (fresh.wait !== null && (await this.#d.store.runs.postpone(fresh.id, { status: fresh.status, wait: fresh.wait, due_at_ms: fresh.due_at_ms }, retryAt))) this.#d.wake(retryAt);
          return;
        }
      }
      counted = true;
      if (queued) this.#gate.dequeued(workflow);
      // claimed before anything runs: a resume URL or a cancel that comes now finds the run
      // running (409), instead of being answered and then overwritten by this node's commit
      if ((fresh.due_at_ms !== null || fresh.status === "suspended") && !(await this.#claims.load({ id: fresh.id, status: fresh.status, wait: fresh.wait }))) return;
      row = fresh;
      // it runs the deployment it started on to its end (one no longer kept, from before
      // deployments were kept: the current one, from its cursor on)
      const pinned = (await this.#d.deployment(target, row.deployment_id)) ?? target;
      const state = loadedRunState(pinned.workflow!, row, await this.#steps.load(row.id), this.#d.version);
      const taken = transition(pinned.workflow!, state, { type: "takenUp" }, now);
      if (taken.next.kind !== "step") {
        await this.#settleOnly(pinned, state, taken.next, taken.error, taken.reportError);
        return;
      }
      await this.#drive(pinned, state, taken.next, {}, false);
    } finally {
      this.#inFlight.delete(row.id);
      if (counted) this.#runEnded(target);
    }
  }

  async #drive(target: Target, state: RunState, next: Next, opts: RunOptions, newRun: boolean): Promise<InvokeResult> {
    const runId = state.run.id;
    this.#inFlight.add(runId);
    let last = emptyResult();
    let responded = false;
    // the HTTP reply goes out once: at $.respond({immediate: true}), or when the step that called
    // $.respond has committed
    const reply = (response: HttpResponse) => {
      if (responded || !opts.respond) return;
      responded = true;
      // what the trigger got, whatever the step's result says later (a crash, a timeout)
      state.run.response_status ??= response.status;
      opts.respond(response);
    };
    let first = true;
    try {
      while (next.kind === "step") {
        if (this.#cancelled.has(runId) || this.#d.halted(target.source.id)) break;
        const inv = this.#invocation(target, state, next, {
          newRun: first && newRun,
          ...(opts.respond && !responded ? { onRespond: reply } : {}),
        });
        let done: Committed;
        try {
          done = await this.#d.step(target, first ? opts : {}, inv);
        } catch (e) {
          // a new run's trigger is still there: it runs again (or is set aside as poison). One that
          // answered at once ($.respond({immediate: true})) had no trigger kept: it is lost, and said so.
          if (first && newRun) {
            if (responded) this.#d.log(e, `run ${runId} answered its request at once, then its first step could not be committed: the run is lost`);
            throw e;
          }
          // The store is down (or the workflow moved to another node): the run's row is what the
          // store has, and it is taken up again once the store takes writes (or by its new owner).
          // Any other refusal would refuse every try: the run fails here, naming why.
          // One that ran on the state of another run's refused step goes on from what the store has.
          if (runsAgainLater(e)) this.#d.log(e, `committing a step of run ${runId} failed; the run goes on once the store takes writes again`);
          else await this.#refused(target, state, next.idx, e);
          break;
        }
        first = false;
        last = done.result;
        if (last.response) reply(last.response);
        // the step's result, applied to the run as it committed, says what comes next
        next = done.next ?? { kind: "end" };
      }
      if (state.run.due_at_ms !== null && state.run.status !== "cancelled") this.#d.wake(state.run.due_at_ms);
      return last;
    } finally {
      this.#inFlight.delete(runId);
      this.#cancelled.delete(runId);
    }
  }

  /** A run is no longer driven here: its place in the gate frees, and a queued run may take it. */
  #runEnded(target: Target): void {
    this.#gate.idle(target.workflow!);
    if (RunGate.gated(target.workflow!)) void this.#startQueued(target);
  }

  /**
   * A run of a gated workflow ended here: a run held back on its way back from a wait goes on
   * first (it had started); else its oldest queued runs that may start now, start.
   */
  async #startQueued(target: Target): Promise<void> {
    const workflow = target.workflow!;
    if (this.#d.halted(workflow.id)) return;
    try {
      for (let id = this.#holds.next(workflow.id); id !== undefined; id = this.#holds.next(workflow.id)) {
        const row = await this.#d.store.runs.byId(id);
        const now = Date.now();
        // still held (not taken up by its due time, cancelled or ended meanwhile): due now, and taken up here
        if (!row || row.wait === null || row.due_at_ms === null || this.#inFlight.has(id)) continue;
        if (!(await this.#d.store.runs.postpone(id, { status: row.status, wait: row.wait, due_at_ms: row.due_at_ms }, now))) continue;
        void this.resume(target, { ...row, due_at_ms: now }).catch((e: unknown) => this.#d.log(e, `taking up held run ${id} failed`));
        return;
      }
    } catch (e) {
      this.#d.log(e, `reading the held runs of ${workflow.id} failed; they go on at their due time`);
    }
    try {
      // oldest first, each counted in the gate before the next is looked at
      const queued = await this.#d.store.runs.queued({ workflowId: workflow.id }, Date.now(), 8);
      if (queued.length === 0) this.#gate.queueEmpty(workflow);
      for (const row of queued) {
        if (this.#inFlight.has(row.id)) continue;
        if (!this.#gate.tryStart(workflow, Date.now()).ok) return;
        void this.resume(target, row, true).catch((e: unknown) => this.#d.log(e, `starting queued run ${row.id} failed`));
      }
    } catch (e) {
      this.#d.log(e, `reading the queued runs of ${workflow.id} failed; they start with the next sweep`);
    }
  }

  /** A step's commit was refused for a reason of its own (a value the store won't take): the run fails. */
  async #refused(target: Target, state: RunState, idx: number, e: unknown): Promise<void> {
    this.#d.log(e, `a step of run ${state.run.id} could not be committed; the run fails`);
    const cellId = state.steps[idx]?.cell_id;
    const error: InvocationError = { name: "InternalError", message: `the step's result could not be committed (${e instanceof Error ? e.message : String(e)})`, stack: "", ...(cellId ? { cellId } : {}) };
    const failed = transition(target.workflow!, state, { type: "refused", idx, error }, Date.now());
    try {
      await this.#settleOnly(target, state, failed.next, failed.error, failed.reportError);
    } catch (e2) {
      this.#d.log(e2, `recording the failure of run ${state.run.id} failed`);
    }
  }

  /** Commits a transition that ran no step (a run's end, a timeout, a refusal): its rows and its error. */
  #settleOnly(target: Target, state: RunState, next: Next, error: InvocationError | undefined, reportError: boolean): Promise<void> {
    const result = emptyResult();
    if (error) result.error = error;
    return this.#d.settleOnly(target, {}, result, this.#invocation(target, state, next, { reportError }));
  }

  /**
   * The invocation of one step of the run: its result, applied to the run when it commits, says
   * what follows. A `next` that is not a step (the run ends or times out) runs nothing.
   */
  #invocation(target: Target, state: RunState, next: Next, options: { newRun?: boolean; reportError?: boolean; onRespond?: (result: HttpResponse) => void }): StepInvocation {
    const workflow = target.workflow!;
    const run: StepRunInfo = { customResponse: workflow.trigger.type === "http" && workflow.trigger.custom_response === true, context: state.context };
    if (this.#d.email) run.email = true;
    const step = next.kind === "step" ? next : undefined;
    if (step) {
      run.step = step.idx;
      run.runs = step.runs;
      run.results = resultsBefore(state, step.idx);
      // signed only for a step whose code can ask for them (an HMAC a step was 3% of the thread)
      if (mayWait(workflow.steps[step.idx])) run.urls = waitUrls(this.#d.secrets, this.#d.publicUrl, state.run.id, step.idx, step.runs);
      if (step.rerun?.context !== undefined) run.rerunContext = JSON.parse(step.rerun.context);
      if (step.rerun?.callback !== undefined) run.callbackRequest = JSON.parse(step.rerun.callback);
    }
    const settings = { retries: workflow.settings?.retries ?? 0, retryBaseMs: this.#d.retryBaseMs };
    return {
      run,
      ctx: stepContext(state.run),
      newRun: options.newRun === true,
      ...(options.onRespond ? { onRespond: options.onRespond } : {}),
      // a run is one of the owner's invocations once: at its first step, wherever that runs (a
      // replay or a queued run starts from the waker)
      countsRun: options.newRun === true || (step !== undefined && state.run.cursor === 0 && state.steps.every((s) => s.attempts === 0)),
      settle: (result, now) => {
        const ended: RunEvent | undefined = step && { type: "stepEnded", step, result: result, settings };
        const applied = ended && transition(workflow, state, ended, now);
        const reportError = applied ? applied.reportError : options.reportError === true;
        const goesOn = applied?.next.kind === "step";
        // bounded: a run's $logs event holds its first MAX_RUN_LOG_LINES lines (each step's row has its own)
        for (const line of result.logs) if (state.logs.length < MAX_RUN_LOG_LINES) state.logs.push(line);
        const logs = goesOn ? [] : state.logs.splice(0);
        const sends = step && !result.error ? sendRows(state.run, step.idx, state.steps[step.idx]?.cell_id, result, now) : undefined;
        return { ...takeRows(state), reportError, logs, ...(sends ? { sends } : {}), ...(applied ? { next: applied.next } : {}) };
      },
    };
  }
}



/**
 * Whether a run taken up in `phase` comes back from a wait to run a step: a delay, rerun or
 * retry whose time came, or a suspension that was resumed (one that timed out only fails).
 */
function backFromWait(phase: ReturnType<typeof phaseOf>): boolean {
  if (phase.kind === "delayed" || phase.kind === "rerunning" || phase.kind === "retrying") return true;
  return phase.kind === "suspended" && phase.wait.resumed === true;
}

function emptyResult(): InvokeResult {
  return { emits: [], db: null, logs: [], emitErrors: [], wallMs: 0 };
}
