// The sources each app delivery has reached (docs/writing-components.md, "App hooks"). An app
// sends an event again when its request failed (Slack and Shopify retry it, GitHub redelivers it),
// with the same id: the sources it reached the first time are not run again, only the ones it
// missed. Kept in this node's memory, for REMEMBER_MS and MAX_DELIVERIES deliveries at most (the
// oldest go first): the apps retry within hours (Slack within an hour, Shopify within four).

const REMEMBER_MS = 6 * 3600_000;
const MAX_DELIVERIES = 10_000;

/** by source id: the delivery's acceptance for it, under way or done (true: accepted) */
export type Reached = Map<string, Promise<boolean>>;

export class AppDeliveries {
  /** by account and the app's delivery id, in the order first seen */
  readonly #byKey = new Map<string, { at: number; reached: Reached }>();

  /** the sources the delivery `id` of the account `accountId` reached so far (none, the first time) */
  of(accountId: string, id: string, now = Date.now()): Reached {
    for (const [k, d] of this.#byKey) {
      if (now - d.at < REMEMBER_MS && this.#byKey.size < MAX_DELIVERIES) break;
      this.#byKey.delete(k);
    }
    const key = `${accountId}\u0000${id}`;
    let d = this.#byKey.get(key);
    if (!d) {
      d = { at: now, reached: new Map() };
      this.#byKey.set(key, d);
    }
    return d.reached;
  }
}

/**
 * `accept()` the delivery for the source `sourceId` unless it reached it already (`reached`:
 * without one, the app gave no id, it always is). Whether it reached the source, now or before.
 * An acceptance still under way (the app's retry came while its first try ran) is waited for;
 * one that failed or was refused (over the quota) is tried again.
 */
export async function reachOnce(reached: Reached | undefined, sourceId: string, accept: () => Promise<boolean>): Promise<boolean> {
  if (!reached) return accept();
  for (let prior = reached.get(sourceId); prior; prior = reached.get(sourceId)) {
    if (await prior.catch(() => false)) return true;
    if (reached.get(sourceId) === prior) reached.delete(sourceId);
  }
  const accepting = accept();
  reached.set(sourceId, accepting);
  let accepted = false;
  try {
    accepted = await accepting;
    return accepted;
  } finally {
    if (!accepted && reached.get(sourceId) === accepting) reached.delete(sourceId);
  }
}
