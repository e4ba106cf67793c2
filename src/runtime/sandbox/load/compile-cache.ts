// V8 code cache for source the runner compiles again and again in fresh isolates: the runtime
// and provided modules (a fixed set) and component code (bounded by CodeStore). Consuming cached
// data skips parsing, which is most of what compiling costs for a known module.
import type ivm from "isolated-vm";
import { POOLED, type IsolateCalls } from "./isolate-calls.ts";

const cache = new Map<string, ivm.ExternalCopy<ArrayBuffer>>();

/** Compiles `code` as a module, reusing (or producing, the first time) cached data under `key`. */
export async function compileCached(
  isolate: ivm.Isolate,
  key: string,
  code: string,
  filename: string,
  calls: IsolateCalls = POOLED,
): Promise<ivm.Module> {
  const cachedData = cache.get(key);
  const mod = await calls.compileModule(isolate, code, cachedData ? { filename, cachedData } : { filename, produceCachedData: true });
  const produced = (mod as ivm.Module & ivm.CachedDataResult).cachedData;
  if (!cachedData && produced) cache.set(key, produced);
  return mod;
}

export async function compileScriptCached(
  isolate: ivm.Isolate,
  key: string,
  code: string,
  filename: string,
  calls: IsolateCalls = POOLED,
): Promise<ivm.Script> {
  const cachedData = cache.get(key);
  const script = await calls.compileScript(isolate, code, cachedData ? { filename, cachedData } : { filename, produceCachedData: true });
  const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
  if (!cachedData && produced) cache.set(key, produced);
  return script;
}

/** Drops the cached data of a key (a component code no longer stored). */
export function forgetCached(key: string): void {
  cache.get(key)?.release();
  cache.delete(key);
}
