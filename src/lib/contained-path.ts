import { isAbsolute, relative, resolve, sep } from "node:path";

// Paths built from data (a package's name, version or dependency key, a tar entry's path) are
// checked lexically before anything is written: whatever the validation upstream let through,
// `..`, an absolute part or a stray separator can't take a write outside the directory meant.

/**
 * `base` joined with `parts` and resolved; throws unless the result is strictly inside `base`
 * (base itself is refused too: no name or version ever stands for the directory holding it).
 */
export function containedPath(base: string, ...parts: string[]): string {
  const root = resolve(base);
  const path = resolve(root, ...parts);
  const rel = relative(root, path);
  if (rel === "" || rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel) || parts.some((p) => p.includes("\0"))) {
    throw new Error(`refusing the path "${parts.join("/")}": it leads outside its directory`);
  }
  return path;
}
