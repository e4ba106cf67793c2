import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { containedPath } from "../../lib/contained-path.ts";

// The package cache's size is capped (TRIBUTARY_NPM_CACHE_MB). It is only a cache: a saved
// component keeps its bundle in the store and never needs these files to run, so when the cache
// passes its cap the least recently used package versions go, and with them the dependency trees
// (roots/) laid out from them, which are rebuilt from the registry the next time a save needs them.

/** Bytes of a directory's files, walked once (when a package is unpacked). */
export function sizeOf(dir: string): number {
  let total = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) total += sizeOf(p);
    else if (d.isFile()) total += statSync(p).size;
  }
  return total;
}

/** Writes `<dir>.size`: the bytes counted while unpacking, or else walked. */
export function recordSize(dir: string, bytes = sizeOf(dir)): void {
  writeFileSync(`${dir}.size`, String(bytes));
}

function recordedSize(dir: string): number {
  try {
    return Number(readFileSync(`${dir}.size`, "utf8")) || 0;
  } catch {
    return 0;
  }
}

/**
 * Removes least recently used package versions (their directory's mtime is touched on each use)
 * until the cache is under `capBytes`; `keep` (the versions a save is using right now) stay.
 * Returns the package versions removed.
 */
export function pruneCache(cacheDir: string, capBytes: number, keep: ReadonlySet<string>): string[] {
  const files = join(cacheDir, "files");
  if (!existsSync(files)) return [];
  const entries = readdirSync(files, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.includes(".tmp-"))
    .map((d) => {
      const dir = containedPath(files, d.name);
      return { name: d.name, dir, size: recordedSize(dir), used: statSync(dir).mtimeMs };
    });
  let total = entries.reduce((n, e) => n + e.size, 0);
  if (total <= capBytes) return [];
  const removed: string[] = [];
  for (const e of entries.sort((a, b) => a.used - b.used)) {
    if (total <= capBytes) break;
    if (keep.has(e.name)) continue;
    rmSync(e.dir, { recursive: true, force: true });
    rmSync(`${e.dir}.size`, { force: true });
    total -= e.size;
    removed.push(e.name);
  }
  // trees hard-link the files they were laid out from: they go too (rebuilt when next needed),
  // except those laid out for the packages kept
  if (removed.length > 0) {
    const roots = join(cacheDir, "roots");
    for (const r of existsSync(roots) ? readdirSync(roots) : []) {
      const dir = containedPath(roots, r);
      const uses = existsSync(dir) ? readdirSync(dir) : [];
      if (uses.some((u) => removed.includes(u))) rmSync(dir, { recursive: true, force: true });
    }
  }
  return removed;
}
