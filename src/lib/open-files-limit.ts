import { readFileSync } from "node:fs";

// The process's soft limit on open files (RLIMIT_NOFILE), which bounds how many connections it
// can hold. Node has no getrlimit; Linux shows it in /proc/self/limits. Undefined elsewhere, or
// when the limit is "unlimited".
export function openFilesLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync("/proc/self/limits", "utf8");
    } catch {
      return undefined;
    }
  }
  const m = /^Max open files\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : undefined;
}
