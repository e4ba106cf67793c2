import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

// In WAL mode a commit appends pages to the -wal file, and a checkpoint copies them back into the
// database file. SQLite's automatic checkpoint runs inside the commit that crosses its threshold,
// on the connection that committed: our event loop. Under load that was one commit in a few
// paying for a copy of ~1,000 pages (a few ms, at 1,000 events/s the tail of every latency), and
// a 100-listener fan-out spent 10% of its main thread there.
//
// So the service's connection never checkpoints below a backstop, and a worker thread with its
// own connection runs PASSIVE checkpoints a few times a second instead. PASSIVE never waits for
// the writer nor blocks it (WAL lets one checkpointer and one writer work at once), so commits go
// on while pages are copied. The backstop (wal_autocheckpoint on the service's connection) only
// acts if the worker falls far behind, e.g. while it is blocked on a slow disk.

/** pages the WAL may hold before the service's own connection checkpoints (the backstop) */
export const BACKSTOP_PAGES = 20_000;
const EVERY_MS = 250;
const STOP_WAIT_MS = 2000;

// The worker is a plain CommonJS script, so it loads no TypeScript (and nothing of ours). It
// sleeps on a shared flag, so stopping it is synchronous: the service's connection closes after
// it and, closing last, makes the final checkpoint itself.
const WORKER = `
const { workerData } = require("node:worker_threads");
const Sqlite = require(workerData.driver);
const ctl = new Int32Array(workerData.ctl);
let db;
try {
  db = new Sqlite(workerData.path);
  db.pragma("busy_timeout = 1000");
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  while (Atomics.load(ctl, 0) === 0) {
    try { checkpoint.get(); } catch { /* busy or locked: the next round tries again */ }
    Atomics.wait(ctl, 0, 0, workerData.everyMs);
  }
} finally {
  db?.close();
  Atomics.store(ctl, 1, 1);
  Atomics.notify(ctl, 1);
}
`;

export interface Checkpointer {
  /** stops the worker and waits (briefly) until its connection is closed */
  stop(): void;
}

/** Starts checkpointing the database at `path` off the event loop. */
export function startCheckpointer(path: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  // [0]: stop asked, [1]: stopped
  const ctl = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WORKER, { eval: true, workerData: { path, driver, ctl: ctl.buffer, everyMs: EVERY_MS } });
  // it must never keep the process alive, nor take it down: the backstop covers a dead worker
  worker.unref();
  worker.on("error", () => Atomics.store(ctl, 1, 1));
  worker.on("exit", () => Atomics.store(ctl, 1, 1));
  return {
    stop() {
      Atomics.store(ctl, 0, 1);
      Atomics.notify(ctl, 0);
      // at most one checkpoint's time; a worker still starting up answers once it is up
      Atomics.wait(ctl, 1, 0, STOP_WAIT_MS);
    },
  };
}
