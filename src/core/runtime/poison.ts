import { AppError } from "../../lib/errors.ts";
import { FencedError } from "../../store/port.ts";

// A run whose commit keeps failing while the store itself is fine is poison: replaying it would
// fail the same way forever. After a few tries it is set aside (recorded on $errors with its
// event, its row consumed). Failures because the store can't write don't count: that work
// waits for the store instead.

export const POISON_TRIES = 3;

export function isStorageFault(e: unknown): boolean {
  return e instanceof AppError && e.code === "storage_unavailable";
}

/**
 * A result that was not committed because an earlier result of the same emitter was refused: it
 * ran on that result's state (commit-queue.ts), so it runs again from what the store has. Not its
 * own failure: it doesn't count towards poison.
 */
export class DependentPartError extends Error {
  constructor(emitterId: string) {
    super(`an earlier result of ${emitterId} could not be committed, and this one ran on its state; it runs again`);
    this.name = "DependentPartError";
  }
}

/** a commit failure that is not the work's own: it runs again once the store (or its owner) takes it */
export function runsAgainLater(e: unknown): boolean {
  return isStorageFault(e) || isFenced(e) || e instanceof DependentPartError;
}

/** the work is another node's now (its lease moved, or it finished the work already) */
export function isFenced(e: unknown): boolean {
  return e instanceof FencedError;
}

/** Counts a failure of `key`; true once it has failed POISON_TRIES times for a reason of its own. */
export function countFailure(failures: Map<string | number, number>, key: string | number, e: unknown): boolean {
  // fenced: the work is another node's now, and that node runs it
  if (runsAgainLater(e)) return false;
  const n = (failures.get(key) ?? 0) + 1;
  failures.set(key, n);
  return n >= POISON_TRIES;
}

export function describeFailure(e: unknown): string {
  return `its result could not be committed (${e instanceof Error ? e.message : String(e)}); set aside after ${POISON_TRIES} tries`;
}
