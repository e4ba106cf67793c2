import { constants, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { containedPath } from "../../lib/contained-path.ts";

// roots/<hash>/<name>@<version>/node_modules/<name>: the package's files (hard links to the
// unpacked ones, so it costs no space); beside it, node_modules/<dependency> → that dependency's
// own directory in the same root. Laid out on the cache's worker thread (a package may have
// thousands of files), in a temporary directory renamed into place when whole.

export interface LayoutPackage {
  /** its directory name under files/ and in the root (dirName of name@version) */
  dir: string;
  name: string;
  /** dependency name → that dependency's `dir` */
  deps: Array<[string, string]>;
}

export function layoutTree(root: string, files: string, packages: LayoutPackage[]): void {
  if (existsSync(root)) return;
  const tmp = `${root}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const modules = (dir: string) => containedPath(tmp, dir, "node_modules");
  // each path below is built from a package's name or a dependency key: it must stay in the
  // package's own node_modules whatever the name says
  const entry = (dir: string, name: string) => containedPath(modules(dir), name);
  const byDir = new Map(packages.map((p) => [p.dir, p]));
  try {
    mkdirSync(tmp, { recursive: true });
    for (const p of packages) {
      copyTree(containedPath(files, p.dir), entry(p.dir, p.name));
      for (const [dep, depDir] of p.deps) {
        const target = byDir.get(depDir);
        if (dep === p.name || !target) continue;
        link(entry(p.dir, dep), entry(depDir, target.name));
      }
    }
    mkdirSync(dirname(root), { recursive: true });
    renameSync(tmp, root);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(root)) throw e;
  }
}

function link(from: string, to: string): void {
  mkdirSync(dirname(from), { recursive: true });
  symlinkSync(relative(dirname(from), to), from);
}

// Hard links where the file system allows them (same cache directory), copies where it doesn't;
// never over an existing file.
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const d of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, d.name);
    const dest = join(to, d.name);
    if (d.isDirectory()) copyTree(src, dest);
    else if (d.isFile()) {
      try {
        linkSync(src, dest);
      } catch (e) {
        if (!["EXDEV", "EPERM", "EMLINK", "ENOTSUP"].includes((e as NodeJS.ErrnoException).code ?? "")) throw e;
        copyFileSync(src, dest, constants.COPYFILE_EXCL);
      }
    }
  }
}
