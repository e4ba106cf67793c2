import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { pruneCache } from "./cache.ts";
import type { CacheJob, CacheReply } from "./cache-jobs.ts";
import { unpackPackage } from "./extract.ts";
import { layoutTree } from "./layout.ts";

// The package cache's disk work (unpacking, laying trees out, pruning), one job at a time, on a
// thread of its own: 200,000 files written from the service's own thread stalled its event loop
// (and /healthz) for seconds.

async function run(job: CacheJob): Promise<CacheReply> {
  try {
    switch (job.op) {
      case "unpack":
        return { id: job.id, ok: true, value: await unpackPackage(job.req) };
      case "layout":
        layoutTree(job.root, job.files, job.packages);
        return { id: job.id, ok: true, value: null };
      case "prune":
        return { id: job.id, ok: true, value: pruneCache(job.cacheDir, job.capBytes, new Set(job.keep)) };
    }
  } catch (e) {
    return { id: job.id, ok: false, message: (e as Error).message };
  }
}

// On Linux a nice value belongs to a thread: this one yields the CPU to the service's event loop
// (as the runners do, TRIBUTARY_RUNNER_NICE) when both want it. /proc/thread-self is <pid>/task/<tid>.
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 10);
} catch {
  // not Linux, or not allowed: the unpack still runs off the event loop
}

// the service sends the next job only when this one has answered
parentPort!.on("message", (job: CacheJob) => void run(job).then((reply) => parentPort!.postMessage(reply)));
