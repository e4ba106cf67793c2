import type { ExpressionBuilder } from "kysely";
import type { Database } from "../schema.ts";
import type { EventKey } from "../port.ts";

// Event ids `${ms}-${n}` compared as a pair of numbers (docs/api.md, "Events": sorted numerically, not as strings).
type EventsEb = ExpressionBuilder<Database, "events">;

export const olderThan = (eb: EventsEb, k: EventKey) =>
  eb.or([eb("ms", "<", k.ms), eb.and([eb("ms", "=", k.ms), eb("n", "<", k.n)])]);
export const newerThan = (eb: EventsEb, k: EventKey) =>
  eb.or([eb("ms", ">", k.ms), eb.and([eb("ms", "=", k.ms), eb("n", ">", k.n)])]);
export const atMost = (eb: EventsEb, k: EventKey) =>
  eb.or([eb("ms", "<", k.ms), eb.and([eb("ms", "=", k.ms), eb("n", "<=", k.n)])]);
export const atLeast = (eb: EventsEb, k: EventKey) =>
  eb.or([eb("ms", ">", k.ms), eb.and([eb("ms", "=", k.ms), eb("n", ">=", k.n)])]);
