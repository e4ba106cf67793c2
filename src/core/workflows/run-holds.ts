// Runs held back on their way back from a wait (run-driver.ts): a delay, rerun or retry whose time
// came, or a resumed suspension, while the workflow already executes `settings.concurrency` runs.
// Such a run keeps its wait in the store with a later due time, so a restart loses nothing; here
// the node remembers it, so the next run of the workflow to end here takes it up at once instead
// of leaving the slot to the queue. Its due time backs off while it keeps finding no room, as the
// safety net for a slot freed elsewhere (a run cancelled, another node).

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/**
 * ...and longer while many are held: the runs that end take the held ones up one by one anyway,
 * and 100,000 delays ending at once for a workflow with `concurrency: 10` must not each try
 * again every 5 s (20,000 store writes a second)
 */
const MAX_RETRY_MS_PER_HELD = 50;
/** runs remembered at most (their due time still takes them up past it) */
const MAX_HELD = 100_000;

export class RunHolds {
  /** by workflow: held run ids, oldest first */
  readonly #byWorkflow = new Map<string, Set<string>>();
  /** how often each held run found no room */
  readonly #tries = new Map<string, number>();

  /** `runId` found its workflow full at `now`: when it tries again by itself */
  retryAt(workflowId: string, runId: string, now: number): number {
    const tries = (this.#tries.get(runId) ?? 0) + 1;
    if (this.#tries.size >= MAX_HELD && tries === 1) this.#forgetAll();
    this.#tries.set(runId, tries);
    let held = this.#byWorkflow.get(workflowId);
    if (!held) this.#byWorkflow.set(workflowId, (held = new Set()));
    held.add(runId);
    const cap = Math.max(MAX_RETRY_MS, held.size * MAX_RETRY_MS_PER_HELD);
    return now + Math.min(cap, FIRST_RETRY_MS * 2 ** Math.min(tries - 1, 30));
  }

  /** `runId` found room: it is no longer held */
  admitted(workflowId: string, runId: string): void {
    if (!this.#tries.delete(runId)) return;
    const held = this.#byWorkflow.get(workflowId);
    held?.delete(runId);
    if (held?.size === 0) this.#byWorkflow.delete(workflowId);
  }

  /** the oldest run of the workflow still remembered as held, forgotten here (the caller takes it up or finds it gone) */
  next(workflowId: string): string | undefined {
    const held = this.#byWorkflow.get(workflowId);
    const first = held?.values().next().value;
    if (first === undefined) return undefined;
    held!.delete(first);
    if (held!.size === 0) this.#byWorkflow.delete(workflowId);
    this.#tries.delete(first);
    return first;
  }

  #forgetAll(): void {
    this.#byWorkflow.clear();
    this.#tries.clear();
  }
}
