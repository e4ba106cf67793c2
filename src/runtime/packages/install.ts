import { createHash } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import semver from "semver";
import * as tar from "tar";
import type { PackageVersion, Registry } from "./registry.ts";
import { recordSize } from "./cache.ts";

// Installs the packages a component imports, with their dependencies, into a content-addressed
// cache under the data directory, without running any install script. Each package version is
// unpacked once (files/<name>@<version>); a dependency tree (roots/<tree hash>/) is laid out the
// way pnpm lays out node_modules: each package in a real directory of its own (hard links to the
// unpacked files, so it costs no space), with symlinks to its dependencies beside it, so each
// package sees exactly the versions resolved for it when the bundler follows the links.

export interface TreeNode {
  key: string;
  v: PackageVersion;
  /** dependency name → the key (name@version) resolved for it */
  deps: Map<string, string>;
}

/** The directory name of a package version in the cache (a scope's slash would nest it). */
export const dirName = (key: string) => key.replace("/", "+");

export interface InstalledTree {
  /**
   * For each package the component imports, the directory to resolve it from: the package's own
   * entry in the tree, so that every file of it is reached by one path (the bundler keeps
   * symlinked paths as they are, and a package finds its dependencies beside its own entry).
   */
  resolveDirs: Map<string, string>;
  /** every package version in the tree, `name@version`, sorted */
  packages: string[];
}

const MAX_PACKAGES = 1000;

const keyOf = (name: string, version: string) => `${name}@${version}`;

/** Picks a version for every package the tree needs, level by level (metadata fetched in parallel). */
export async function resolveTree(registry: Registry, top: Array<{ name: string; range: string }>): Promise<{ top: Map<string, string>; nodes: Map<string, TreeNode> }> {
  const nodes = new Map<string, TreeNode>();
  const chosen = new Map<string, string[]>();
  const topKeys = new Map<string, string>();
  type Want = { from: TreeNode | null; name: string; range: string };
  let level: Want[] = top.map((t) => ({ from: null, ...t }));
  while (level.length > 0) {
    const picked = await Promise.all(
      level.map(async (w) => {
        const reuse = (chosen.get(w.name) ?? []).find((version) => semver.satisfies(version, w.range === "latest" ? "*" : w.range));
        if (reuse) return { w, key: keyOf(w.name, reuse), v: nodes.get(keyOf(w.name, reuse))?.v };
        try {
          const v = await registry.pick(w.name, w.range);
          return { w, key: keyOf(w.name, v.version), v };
        } catch (e) {
          const via = w.from ? ` (a dependency of ${w.from.key})` : "";
          throw new Error(`cannot install ${w.name}${via}: ${(e as Error).message}`, { cause: e });
        }
      }),
    );
    const next: Want[] = [];
    for (const { w, key, v } of picked) {
      if (w.from) w.from.deps.set(w.name, key);
      else topKeys.set(w.name, key);
      if (nodes.has(key) || !v) continue;
      const node: TreeNode = { key, v, deps: new Map() };
      nodes.set(key, node);
      chosen.set(w.name, [...(chosen.get(w.name) ?? []), v.version]);
      if (nodes.size > MAX_PACKAGES) throw new Error(`the packages need more than ${MAX_PACKAGES} dependencies in all`);
      const optionalPeers = v.peerDependenciesMeta ?? {};
      const wants = { ...v.dependencies };
      for (const [peer, range] of Object.entries(v.peerDependencies ?? {})) if (!optionalPeers[peer]?.optional) wants[peer] ??= range;
      for (const [name, range] of Object.entries(wants)) {
        if (typeof range !== "string" || /^(file|link|git|github|http|https|workspace):|\//.test(range)) continue;
        next.push({ from: node, name, range: range.startsWith("npm:") ? range : range || "*" });
      }
    }
    level = next.filter((w) => !w.range.startsWith("npm:"));
  }
  return { top: topKeys, nodes };
}

/** Makes sure every package of the tree is unpacked, then lays out (or reuses) its symlink tree. */
export async function installTree(
  registry: Registry,
  cacheDir: string,
  tree: { top: Map<string, string>; nodes: Map<string, TreeNode> },
): Promise<InstalledTree> {
  const files = join(cacheDir, "files");
  mkdirSync(files, { recursive: true });
  await forEachLimited([...tree.nodes.values()], 8, (node) => unpack(registry, files, node));
  const packages = [...tree.nodes.keys()].sort();
  const hash = createHash("sha256");
  for (const key of packages) hash.update(`${key}>${[...tree.nodes.get(key)!.deps].sort().join(",")}\n`);
  hash.update(`top>${[...tree.top].sort().join(",")}`);
  const root = join(cacheDir, "roots", hash.digest("hex").slice(0, 32));
  if (!existsSync(root)) layout(root, files, tree);
  const resolveDirs = new Map([...tree.top].map(([name, key]) => [name, join(root, dirName(key))]));
  return { resolveDirs, packages };
}

async function unpack(registry: Registry, files: string, node: TreeNode): Promise<void> {
  const dir = join(files, dirName(node.key));
  if (existsSync(dir)) {
    const now = new Date();
    utimesSync(dir, now, now);
    return;
  }
  const bytes = await registry.tarball(node.v);
  const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(tmp, { recursive: true });
  try {
    await pipeline(
      Readable.from([bytes]),
      tar.x({
        cwd: tmp,
        strip: 1,
        // regular files and folders only: a link in a tarball could point anywhere
        filter: (_path, entry) => "type" in entry && (entry.type === "File" || entry.type === "Directory" || entry.type === "OldFile"),
      }),
    );
    const native = nativeReason(tmp);
    if (native) throw new Error(`${node.key} needs a native addon (${native}), which the sandbox can't load`);
    renameSync(tmp, dir);
    recordSize(dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (existsSync(dir)) return; // another save unpacked it meanwhile
    throw e;
  }
}

function nativeReason(dir: string): string | undefined {
  if (existsSync(join(dir, "binding.gyp"))) return "binding.gyp";
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { gypfile?: boolean };
    if (pkg.gypfile === true) return "gypfile";
  } catch {
    // no readable package.json: the bundler will say what is missing
  }
  return undefined;
}

function link(from: string, to: string): void {
  mkdirSync(dirname(from), { recursive: true });
  symlinkSync(relative(dirname(from), to), from);
}

// roots/<hash>/<name>@<version>/node_modules/<name>: the package's files (hard links); beside
// it, node_modules/<dependency> → that dependency's own directory in the same root.
function layout(root: string, files: string, tree: { top: Map<string, string>; nodes: Map<string, TreeNode> }): void {
  const tmp = `${root}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const entry = (key: string) => join(tmp, dirName(key), "node_modules", tree.nodes.get(key)!.v.name);
  try {
    mkdirSync(tmp, { recursive: true });
    for (const [key, node] of tree.nodes) {
      copyTree(join(files, dirName(key)), entry(key));
      for (const [dep, depKey] of node.deps) {
        if (dep === node.v.name) continue;
        link(join(tmp, dirName(key), "node_modules", dep), entry(depKey));
      }
    }
    mkdirSync(dirname(root), { recursive: true });
    renameSync(tmp, root);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(root)) throw e;
  }
}

// Hard links where the file system allows them (same cache directory), copies where it doesn't.
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const d of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, d.name);
    const dest = join(to, d.name);
    if (d.isDirectory()) copyTree(src, dest);
    else if (d.isFile()) {
      try {
        linkSync(src, dest);
      } catch {
        copyFileSync(src, dest);
      }
    }
  }
}

async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  const worker = async () => {
    while (i < items.length) await fn(items[i++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
