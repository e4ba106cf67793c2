import type { RunnerAsk } from "../../runtime/ipc.ts";
import type { DataStoreRecordStore } from "../../store/port.ts";
import { AppError } from "../../lib/errors.ts";
import { layOver, type LiveRecord } from "../../lib/data-store-limits.ts";
import type { PendingWrites } from "./pending-writes.ts";

// The service's side of a run's data store reads (runtime/sandbox/data-store-work.ts): what the
// runner asks for a store the invocation's props name (RunnerProcess checked that), read from
// the committed records with the writes of runs that ended but haven't committed laid over them
// (pending-writes.ts); the asking invocation's own writes are laid over that in the runner.
//
// Memory: keys() and entries() read in pages and stop at MAX_READ_BYTES, and at most
// MAX_BULK_READS of them run at once on this node (the rest wait their turn), so runs reading
// whole stores can't hold more than a few times MAX_READ_BYTES here together.

/** what keys() or entries() may carry back to one invocation */
export const MAX_READ_BYTES = 8 * 1024 * 1024;
const MAX_BULK_READS = 4;
const KEY_PAGE = 1000;
/** values are up to 256 KiB: a page of them is at most 8 MiB */
const ENTRY_PAGE = 32;

export function runnerReads(records: DataStoreRecordStore, pending: PendingWrites): (ask: RunnerAsk) => Promise<unknown> {
  let bulk = 0;
  const waiting: Array<() => void> = [];
  const bulkRead = async <T>(read: () => Promise<T>): Promise<T> => {
    while (bulk >= MAX_BULK_READS) await new Promise<void>((go) => waiting.push(go));
    bulk++;
    try {
      return await read();
    } finally {
      bulk--;
      waiting.shift()?.();
    }
  };

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
      case "keys":
        return bulkRead(async () => {
          const map = new Map<string, LiveRecord>();
          let bytes = 0;
          for (let afterKey: string | undefined; ; ) {
            const keys = await records.keys(ask.store, now, { limit: KEY_PAGE, ...(afterKey === undefined ? {} : { afterKey }) });
            for (const k of keys) {
              if ((bytes += k.length + 4) > MAX_READ_BYTES) throw tooMuch("keys()");
              map.set(k, { json: "", exp: null });
            }
            if (keys.length < KEY_PAGE) break;
            afterKey = keys[keys.length - 1]!;
          }
          return [...layOver(map, ops, now).keys()];
        });
      case "entries":
        return bulkRead(async () => {
          const map = new Map<string, LiveRecord>();
          let bytes = 0;
          for (let afterKey: string | undefined; ; ) {
            const rows = await records.page(ask.store, { limit: ENTRY_PAGE, ...(afterKey === undefined ? {} : { afterKey }) }, now);
            for (const r of rows) {
              if ((bytes += r.key.length + r.value.length + 8) > MAX_READ_BYTES) throw tooMuch("entries()");
              map.set(r.key, { json: r.value, exp: r.expires_at_ms });
            }
            if (rows.length < ENTRY_PAGE) break;
            afterKey = rows[rows.length - 1]!.key;
          }
          return [...layOver(map, ops, now)].map(([k, r]) => [k, r.json]);
        });
      default:
        throw new AppError("invalid_request", `unknown data store read "${String(ask.op)}"`);
    }
  };
}

const tooMuch = (what: string) =>
  new AppError("limit_reached", `${what}: the store holds more than ${MAX_READ_BYTES / 1024 / 1024} MiB, more than one run may read at once`);
