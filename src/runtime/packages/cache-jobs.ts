import { rm } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { containedPath } from "../../lib/contained-path.ts";
import type { UnpackOutcome, UnpackRequest } from "./extract.ts";
import type { LayoutPackage } from "./layout.ts";

// The service's side of the cache's worker (cache-worker.ts): one long-lived thread, unref()ed
// while idle so that it never keeps the process up, started again if it dies. Jobs run one at a time in the
// order given; each is made when its turn comes, so an unpack's limits are what its save has
// left then.

export type CacheJob =
  | { id: number; op: "unpack"; req: UnpackRequest }
  | { id: number; op: "layout"; root: string; files: string; packages: LayoutPackage[] }
  | { id: number; op: "prune"; cacheDir: string; capBytes: number; keep: string[] };

export type CacheReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

interface Made {
  job: CacheJob;
  transfer?: ArrayBuffer[];
  /** a directory to remove if the worker dies during the job */
  cleanup?: string;
  /** run with the job's answer before the next job is made (an unpack's bytes count against its save) */
  done?: (value: unknown) => void;
}
type Make = (id: number) => Made;

interface Queued {
  make: Make;
  resolve: (value: unknown) => void;
  reject: (e: Error) => void;
}

// the worker parses tarballs: a hostile one can't take more heap than this
const WORKER_HEAP_MB = 256;

let worker: Worker | undefined;
let nextId = 1;
const queue: Queued[] = [];
let current: (Queued & Made & { id: number }) | undefined;

function start(): Worker {
  const w = new Worker(new URL("./cache-worker.ts", import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  w.on("message", (reply: CacheReply) => {
    const job = current;
    if (!job || job.id !== reply.id) return;
    current = undefined;
    if (reply.ok) {
      job.done?.(reply.value);
      job.resolve(reply.value);
    } else job.reject(new Error(reply.message));
    pump();
  });
  const died = (why: string) => {
    if (worker !== w) return;
    worker = undefined;
    const job = current;
    current = undefined;
    if (job) {
      // what the job left half written is removed from here (asynchronously: off the event loop)
      if (job.cleanup) void rm(job.cleanup, { recursive: true, force: true }).catch(() => {});
      job.reject(new Error(`the package cache's worker stopped (${why})`));
    }
    pump();
  };
  w.on("error", (e) => died(e.message));
  w.on("exit", (code) => died(`exit code ${code}`));
  return w;
}

function pump(): void {
  if (current) return;
  // idle, the worker never keeps the process up; busy, it does (until its job answers)
  if (queue.length === 0) return void worker?.unref();
  const q = queue.shift()!;
  const id = nextId++;
  let made: Made;
  try {
    made = q.make(id);
  } catch (e) {
    q.reject(e as Error);
    return pump();
  }
  current = { ...q, ...made, id };
  worker ??= start();
  worker.ref();
  worker.postMessage(made.job, made.transfer ?? []);
}

function enqueue<T>(make: Make): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ make, resolve: resolve as (v: unknown) => void, reject });
    pump();
  });
}

/**
 * Unpacks a tarball into files/<dir>, within the limits `budget.next()` gives when its turn
 * comes; what it unpacked is added to the budget before the next job is made.
 */
export function unpackJob(
  files: string,
  dir: string,
  key: string,
  tarball: Buffer,
  budget: { next(): { maxBytes: number; maxFiles: number }; add(bytes: number, files: number): void },
): Promise<UnpackOutcome> {
  return enqueue<UnpackOutcome>((id) => {
    // the bytes move to the worker rather than being copied; a small Buffer may share its
    // memory with others (Node's pool), and is copied out first
    const own = tarball.byteOffset === 0 && tarball.byteLength === tarball.buffer.byteLength && tarball.buffer instanceof ArrayBuffer;
    const bytes = own ? new Uint8Array(tarball.buffer as ArrayBuffer) : new Uint8Array(tarball);
    const tmp = `${dir}.tmp-${process.pid}-${id}-${Math.random().toString(36).slice(2)}`;
    const { maxBytes, maxFiles } = budget.next();
    const req: UnpackRequest = { files, dir, tmp, key, tarball: bytes, maxBytes, maxFiles };
    const done = (out: unknown) => {
      const o = out as UnpackOutcome;
      if (o.ok) budget.add(o.bytes, o.files);
    };
    return { job: { id, op: "unpack", req }, transfer: [bytes.buffer as ArrayBuffer], cleanup: containedPath(files, tmp), done };
  });
}

export function layoutJob(root: string, files: string, packages: LayoutPackage[]): Promise<void> {
  return enqueue<void>((id) => ({ job: { id, op: "layout", root, files, packages } }));
}

/** Prunes the cache to `capBytes` (cache.ts pruneCache), keeping the package directories in `keep`. */
export function pruneJob(cacheDir: string, capBytes: number, keep: string[]): Promise<string[]> {
  return enqueue<string[]>((id) => ({ job: { id, op: "prune", cacheDir, capBytes, keep } }));
}
