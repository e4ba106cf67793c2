import type { EmitterStateRow } from "../../store/port.ts";
import type { EmittedEvent } from "../../runtime/protocol.ts";

// Dedupe (docs/writing-components.md, "Dedupe"): per source, across streams, with its memory kept across updates.
// Input emits are already in ts order; the state is updated in place.

export type Strategy = "unique" | "greatest" | "last";
type DedupeState = EmitterStateRow["dedupe"];

const UNIQUE_MEMORY = 100;

export interface DedupeOutcome {
  kept: EmittedEvent[];
  /** warnings for $logs: emits that had no id under a strategy, kept anyway */
  warnings: string[];
}

export function applyDedupe(strategy: Strategy | undefined, emits: EmittedEvent[], state: DedupeState): DedupeOutcome {
  if (!strategy || emits.length === 0) return { kept: emits, warnings: [] };
  const warnings: string[] = [];
  const withId: EmittedEvent[] = [];
  const kept: EmittedEvent[] = [];
  for (const e of emits) {
    if (e.meta.id === undefined) {
      warnings.push(`dedupe "${strategy}": an emit without meta.id was kept`);
      kept.push(e);
    } else {
      withId.push(e);
    }
  }
  if (strategy === "unique") {
    const seen = new Set((state.ids ?? []).map(String));
    const ids = [...(state.ids ?? [])];
    for (const e of withId) {
      const key = String(e.meta.id);
      if (seen.has(key)) continue;
      seen.add(key);
      ids.push(e.meta.id!);
      kept.push(e);
    }
    state.ids = ids.slice(-UNIQUE_MEMORY);
  } else if (strategy === "greatest") {
    let greatest = state.greatest ?? -Infinity;
    for (const e of withId) {
      const n = Number(e.meta.id);
      if (!Number.isFinite(n)) {
        warnings.push(`dedupe "greatest": meta.id ${JSON.stringify(e.meta.id)} is not numeric; the emit was dropped`);
        continue;
      }
      if (n > greatest) {
        greatest = n;
        kept.push(e);
      }
    }
    if (Number.isFinite(greatest)) state.greatest = greatest;
  } else {
    const at = state.last === undefined ? -1 : withId.findIndex((e) => String(e.meta.id) === String(state.last));
    const fresh = at >= 0 ? withId.slice(at + 1) : withId;
    kept.push(...fresh);
    if (fresh.length > 0) state.last = fresh[fresh.length - 1].meta.id;
  }
  // Emits without an id were pushed first; restore ts order for everything kept.
  const order = new Map(emits.map((e, i) => [e, i]));
  kept.sort((a, b) => order.get(a)! - order.get(b)!);
  return { kept, warnings };
}

/** Orders emits by meta.ts when given; ties (and emits without ts) keep call order. */
export function byTs(emits: EmittedEvent[]): EmittedEvent[] {
  if (!emits.some((e) => typeof e.meta.ts === "number")) return emits;
  let lastTs = -Infinity;
  const keyed = emits.map((e, i) => {
    // an emit without ts sorts where it was called, after the one before it
    const ts = typeof e.meta.ts === "number" ? e.meta.ts : lastTs;
    lastTs = ts;
    return { e, i, ts };
  });
  keyed.sort((a, b) => a.ts - b.ts || a.i - b.i);
  return keyed.map((k) => k.e);
}
