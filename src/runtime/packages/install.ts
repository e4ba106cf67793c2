import { createHash } from "node:crypto";
import { existsSync, mkdirSync, utimesSync } from "node:fs";
import semver from "semver";
import { containedPath } from "../../lib/contained-path.ts";
import { layoutJob, pruneJob, unpackJob } from "./cache-jobs.ts";
import { forEachLimited, mapLimited } from "./concurrency.ts";
import { SaveBudget, type InstallSettings, type UnpackLimits } from "./limits.ts";
import type { PackageVersion, Registry } from "./registry.ts";

// Installs the packages a component imports, with their dependencies, into a content-addressed
// cache under the data directory, without running any install script. Each package version is
// unpacked once (files/<name>@<version>); a dependency tree (roots/<tree hash>/) is laid out the
// way pnpm lays out node_modules: each package in a real directory of its own (hard links to the
// unpacked files, so it costs no space), with symlinks to its dependencies beside it, so each
// package sees exactly the versions resolved for it when the bundler follows the links. The disk
// work runs on the cache's worker thread (cache-jobs.ts), within the limits of limits.ts.

export interface TreeNode {
  key: string;
  v: PackageVersion;
  /** dependency name → the key (name@version) resolved for it */
  deps: Map<string, string>;
}

/** The directory name of a package version in the cache (a scope's slash would nest it). */
export const dirName = (key: string) => key.replaceAll("/", "+");

export interface InstalledTree {
  /**
   * For each package the component imports, the directory to resolve it from: the package's own
   * entry in the tree, so that every file of it is reached by one path (the bundler keeps
   * symlinked paths as they are, and a package finds its dependencies beside its own entry).
   */
  resolveDirs: Map<string, string>;
  /** every package version in the tree, `name@version`, sorted */
  packages: string[];
  /** the save is done with the tree: a prune may remove it again */
  release(): void;
}

const MAX_PACKAGES = 1000;
/** packuments asked for at once by one save (the registry bounds all saves together too) */
const RESOLVE_AT_ONCE = 8;
/** packages fetched and unpacked at once by one save: each holds its tarball until unpacked */
const INSTALL_AT_ONCE = 4;
const MiB = 1024 * 1024;

const keyOf = (name: string, version: string) => `${name}@${version}`;

/** Picks a version for every package the tree needs, level by level. */
export async function resolveTree(registry: Registry, top: Array<{ name: string; range: string }>): Promise<{ top: Map<string, string>; nodes: Map<string, TreeNode> }> {
  const nodes = new Map<string, TreeNode>();
  const chosen = new Map<string, string[]>();
  const topKeys = new Map<string, string>();
  type Want = { from: TreeNode | null; name: string; range: string };
  let level: Want[] = top.map((t) => ({ from: null, ...t }));
  while (level.length > 0) {
    const picked = await mapLimited(level, RESOLVE_AT_ONCE, async (w) => {
      const reuse = (chosen.get(w.name) ?? []).find((version) => semver.satisfies(version, w.range === "latest" ? "*" : w.range));
      if (reuse) return { w, key: keyOf(w.name, reuse), v: nodes.get(keyOf(w.name, reuse))?.v };
      try {
        // pick checks the answer: the name and version asked for, valid dependency names
        const v = await registry.pick(w.name, w.range);
        return { w, key: keyOf(w.name, v.version), v };
      } catch (e) {
        const via = w.from ? ` (a dependency of ${w.from.key})` : "";
        throw new Error(`cannot install ${w.name}${via}: ${(e as Error).message}`, { cause: e });
      }
    });
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
      const wants = new Map(Object.entries(v.dependencies ?? {}));
      for (const [peer, range] of Object.entries(v.peerDependencies ?? {})) if (!optionalPeers[peer]?.optional && !wants.has(peer)) wants.set(peer, range);
      for (const [name, range] of wants) {
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
  settings: InstallSettings,
): Promise<InstalledTree> {
  const files = containedPath(cacheDir, "files");
  mkdirSync(files, { recursive: true });
  const budget = new SaveBudget(settings);
  const release = hold([...tree.nodes.keys()].map(dirName));
  try {
    return await install(registry, cacheDir, files, tree, settings, budget, release);
  } catch (e) {
    release();
    throw e;
  }
}

// Package versions saves are using right now, on this node: a prune (any save's) keeps them, so
// one tenant's large install never removes what another's save is unpacking or bundling from.
const inUse = new Map<string, number>();

function hold(dirs: string[]): () => void {
  for (const d of dirs) inUse.set(d, (inUse.get(d) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const d of dirs) {
      const n = (inUse.get(d) ?? 1) - 1;
      if (n <= 0) inUse.delete(d);
      else inUse.set(d, n);
    }
  };
}

async function install(
  registry: Registry,
  cacheDir: string,
  files: string,
  tree: { top: Map<string, string>; nodes: Map<string, TreeNode> },
  settings: InstallSettings,
  budget: SaveBudget,
  release: () => void,
): Promise<InstalledTree> {
  const keep = () => [...inUse.keys()];
  // the cap holds while a save installs, not only after: the cache is pruned each time the save
  // has unpacked a sixteenth of it (keeping the tree's own packages)
  const capBytes = settings.cacheMb * MiB;
  let sincePrune = 0;
  await forEachLimited([...tree.nodes.values()], INSTALL_AT_ONCE, async (node) => {
    sincePrune += await unpack(registry, files, node, budget);
    if (sincePrune > 0 && sincePrune >= capBytes / 16) {
      sincePrune = 0;
      await pruneJob(cacheDir, capBytes, keep());
    }
  });
  // and once more at the end, on the worker: what is removed is removed off the event loop
  if (sincePrune > 0) await pruneJob(cacheDir, capBytes, keep());
  const packages = [...tree.nodes.keys()].sort();
  const hash = createHash("sha256");
  for (const key of packages) hash.update(`${key}>${[...tree.nodes.get(key)!.deps].sort().join(",")}\n`);
  hash.update(`top>${[...tree.top].sort().join(",")}`);
  const root = containedPath(cacheDir, "roots", hash.digest("hex").slice(0, 32));
  if (!existsSync(root)) {
    const layout = [...tree.nodes.values()].map((n) => ({ dir: dirName(n.key), name: n.v.name, deps: [...n.deps].map(([dep, key]): [string, string] => [dep, dirName(key)]) }));
    await layoutJob(root, files, layout);
  }
  const resolveDirs = new Map([...tree.top].map(([name, key]) => [name, containedPath(root, dirName(key))]));
  return { resolveDirs, packages, release };
}

/** Unpacks the package unless the cache has it; returns the bytes it unpacked. */
async function unpack(registry: Registry, files: string, node: TreeNode, budget: SaveBudget): Promise<number> {
  const dir = containedPath(files, dirName(node.key));
  if (existsSync(dir)) {
    // a use: the cache's LRU order
    const now = new Date();
    utimesSync(dir, now, now);
    return 0;
  }
  const bytes = await registry.tarball(node.v);
  let limits: UnpackLimits | undefined;
  const out = await unpackJob(files, dirName(node.key), node.key, bytes, {
    next: () => (limits = budget.next()),
    add: (b, f) => budget.add(b, f),
  });
  if (!out.ok) {
    if (out.limit === "bytes") throw new Error(`cannot install ${node.key}: ${limits!.bytesReason}`);
    if (out.limit === "files") throw new Error(`cannot install ${node.key}: ${limits!.filesReason}`);
    throw new Error(out.message);
  }
  return out.bytes;
}
