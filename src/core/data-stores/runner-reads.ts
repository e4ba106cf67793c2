import type { RunnerAsk } from "../../runtime/ipc.ts";
import type { DataStoreRecordStore } from "../../store/port.ts";
import { AppError } from "../../lib/errors.ts";
import { layOver, type LiveRecord } from "../../lib/data-store-limits.ts";
import type { PendingWrites } from "./pending-writes.ts";

// The service's side of a run's data store reads (runtime/sandbox/data-store-work.ts): what the
// runner asks for a store the invocation's props name (RunnerProcess checked that), read from
// the committed records with the writes of runs that ended but haven't committed laid over them
// (pending-writes.ts); the asking invocation's own writes are laid over that in the runner.

/** what keys() or entries() may carry back to one invocation */
export const MAX_READ_BYTES = 16 * 1024 * 1024;
const PAGE = 500;

export function runnerReads(records: DataStoreRecordStore, pending: PendingWrites): (ask: RunnerAsk) => Promise<unknown> {
  return async (ask) => {
    // The invocation before this one (same source, same runner) may have ended just now: its
    // result came in the message before this question, and is held as pending once the promises
    // it resolved have run. One turn of the event loop lets them.
    await new Promise((r) => setImmediate(r));
    const now = Date.now();
    const ops = pending.opsFor(ask.store);
    switch (ask.op) {
      case "get": {
        if (typeof ask.key !== "string") throw new AppError("invalid_request", "get() needs a key");
        const row = await records.get(ask.store, ask.key, now);
        const map = new Map<string, LiveRecord>(row ? [[row.key, { json: row.value, exp: row.expires_at_ms }]] : []);
        return layOver(map, ops, now, ask.key).get(ask.key)?.json ?? null;
      }
      case "keys": {
        const map = new Map<string, LiveRecord>();
        let bytes = 0;
        for (const k of await records.keys(ask.store, now)) {
          if ((bytes += k.length + 4) > MAX_READ_BYTES) throw tooMuch("keys()");
          map.set(k, { json: "", exp: null });
        }
        return [...layOver(map, ops, now).keys()];
      }
      case "entries": {
        const map = new Map<string, LiveRecord>();
        let bytes = 0;
        for (let afterKey: string | undefined; ; ) {
          const rows = await records.page(ask.store, { limit: PAGE, ...(afterKey === undefined ? {} : { afterKey }) }, now);
          for (const r of rows) {
            if ((bytes += r.key.length + r.value.length + 8) > MAX_READ_BYTES) throw tooMuch("entries()");
            map.set(r.key, { json: r.value, exp: r.expires_at_ms });
          }
          if (rows.length < PAGE) break;
          afterKey = rows[rows.length - 1]!.key;
        }
        return [...layOver(map, ops, now)].map(([k, r]) => [k, r.json]);
      }
      default:
        throw new AppError("invalid_request", `unknown data store read "${String(ask.op)}"`);
    }
  };
}

const tooMuch = (what: string) =>
  new AppError("limit_reached", `${what}: the store holds more than ${MAX_READ_BYTES / 1024 / 1024} MiB, more than one run may read at once`);
