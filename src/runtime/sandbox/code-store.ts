// Component code the runner holds by code hash, so that the host can omit it from requests.
// Bounded (least recently used goes first); dropping a code drops its V8 code cache too (for a
// workflow bundle, its steps').
import { forgetCached } from "./load/compile-cache.ts";
import { stepCacheKeys } from "./load/load-workflow.ts";

export const MAX_CODES = 256;
export const MAX_CODE_CHARS = 64 * 1024 * 1024;

const codes = new Map<string, string>();
let chars = 0;

export function getCode(codeHash: string): string | undefined {
  const code = codes.get(codeHash);
  if (code !== undefined) {
    codes.delete(codeHash);
    codes.set(codeHash, code);
  }
  return code;
}

export function putCode(codeHash: string, code: string): void {
  if (codes.has(codeHash)) return void getCode(codeHash);
  codes.set(codeHash, code);
  chars += code.length;
  for (const [hash, old] of codes) {
    if ((codes.size <= MAX_CODES && chars <= MAX_CODE_CHARS) || hash === codeHash) break;
    codes.delete(hash);
    chars -= old.length;
    forgetCached(`component:${hash}`);
    // A step shared with a bundle still stored loses its cache too; it is produced again on its next compile.
    for (const key of stepCacheKeys(old)) forgetCached(key);
  }
}
