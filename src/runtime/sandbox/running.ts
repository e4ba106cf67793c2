// One invocation in progress on an Instance (instance.ts), as its op handlers see it
// (invocation-ops.ts): the invocation's state on the runner's side, what the isolate has entered
// and still owes, and the ways back into the isolate for the ops that answer later.
import type { InvocationError } from "../protocol.ts";
import type { Invocation } from "./invocation.ts";

/** What the ops need of the Instance running the invocation: entries into its isolate, and its end. */
export interface RunControl {
  /** enters the isolate to settle the async call `id` (isolate/host.js, settle) */
  settle(id: number, ok: boolean, value: unknown): void;
  /** enters the isolate to run timer `id`'s callback; `then` once that entry is over */
  fireTimer(id: number, then: () => void): void;
  /** ends the run if its outcome has come and no entry into the isolate is under way */
  endIfSettled(): void;
}

export interface Running {
  inv: Invocation;
  fetchAllow: string[];
  deadline: number;
  /** entries into the isolate still in progress; the outcome waits for them */
  entries: number;
  /** repeating timers whose last callback has not run yet: their next fire is skipped */
  firing: Set<number>;
  fetches: number;
  /** set by the component's "done": null for success */
  outcome?: InvocationError | null;
  /** the workflow step running now (its "step" call): errors the runner reports carry it */
  cellId?: string;
  ended: boolean;
  finish: (error: InvocationError | undefined) => void;
  timer?: NodeJS.Timeout;
  control: RunControl;
}
