import { statfs } from "node:fs/promises";
import { storageUnavailable } from "./faults.ts";

// /healthz of the embedded store on a full disk. A write that fits in space SQLite already holds
// (a WAL reused after a checkpoint) still succeeds on a full disk, so a health check that only
// reads, or writes one small row, says 200 until the first write that needs new space fails.
// The file system's free space is what tells: below MIN_FREE_BYTES the store is reported full.

/** less than this free for the data directory, and new writes are about to fail */
export const MIN_FREE_BYTES = 1024 * 1024;
/** statfs once a second at most, however often /healthz is asked */
const CACHE_MS = 1000;

export function diskSpaceCheck(dir: string): () => Promise<void> {
  let checked: { at: number; free: Promise<number> } | undefined;
  return async () => {
    if (!checked || Date.now() - checked.at > CACHE_MS) {
      checked = { at: Date.now(), free: statfs(dir).then((s) => s.bavail * s.bsize) };
    }
    let free: number;
    try {
      free = await checked.free;
    } catch {
      return; // a file system that can't say: the store's own faults tell instead
    }
    if (free < MIN_FREE_BYTES) throw storageUnavailable("full");
  };
}
