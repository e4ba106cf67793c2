// V8 code cache for source the runner compiles again and again in fresh isolates: the runtime
// and provided modules (a fixed set) and component code (bounded by CodeStore). Consuming cached
// data skips parsing, which is most of what compiling costs for a known module.
import type ivm from "isolated-vm";
import { POOLED, type IsolateCalls } from "./isolate-calls.ts";

const cache = new Map<string, ivm.ExternalCopy<ArrayBuffer>>();

type CacheOptions = { filename: string; cachedData: ivm.ExternalCopy<ArrayBuffer> } | { filename: string; produceCachedData: true };

/** Compiles with the cached data under `key`, or produces it the first time. */
async function withCache<T extends ivm.Module | ivm.Script>(key: string, filename: string, compile: (opts: CacheOptions) => Promise<T>): Promise<T> {
  const cachedData = cache.get(key);
  const compiled = await compile(cachedData ? { filename, cachedData } : { filename, produceCachedData: true });
  const produced = (compiled as T & ivm.CachedDataResult).cachedData;
  if (!cachedData && produced) cache.set(key, produced);
  return compiled;
}

/** Compiles `code` as a module, reusing (or producing, the first time) cached data under `key`. */
export function compileCached(isolate: ivm.Isolate, key: string, code: string, filename: string, calls: IsolateCalls = POOLED): Promise<ivm.Module> {
  return withCache(key, filename, (opts) => calls.compileModule(isolate, code, opts));
}

/** The same for a classic script. */
export function compileScriptCached(isolate: ivm.Isolate, key: string, code: string, filename: string, calls: IsolateCalls = POOLED): Promise<ivm.Script> {
  return withCache(key, filename, (opts) => calls.compileScript(isolate, code, opts));
}

/** Drops the cached data of a key (a component code no longer stored). */
export function forgetCached(key: string): void {
  cache.get(key)?.release();
  cache.delete(key);
}
