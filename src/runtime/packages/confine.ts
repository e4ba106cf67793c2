import { realpathSync } from "node:fs";
import { extname, resolve, sep } from "node:path";
import type { OnLoadArgs, OnResolveArgs, PluginBuild } from "../../lib/esbuild.ts";
import { NODE_DIR, polyfillPackageDirs } from "./node-builtins.ts";

// What a bundle may be made of. esbuild reads whatever path an import resolves to, and a
// component's packages are hostile: an absolute import, a relative one that climbs out, a `main`
// that points elsewhere, a bare name found in a node_modules folder above the cache, or an import
// attribute that loads any file as text would put a host file (the data dir's secret key, the
// database, /proc/self/environ) into the saved bundle. So every file loaded must be inside the
// tree installed for this save (real paths, after symlinks) or our own Node stand-ins, be
// JavaScript or JSON, and import attributes may only ask for JSON.

export interface Confinement {
  /** the real path of the dependency tree laid out for this save (roots/<hash>), if any */
  tree: string | undefined;
}

/** Marks a resolution this module asked esbuild for itself, so that it isn't checked twice. */
export const CONFINED = Symbol("confined");

/** the namespace of a package's `require()` that resolves to nothing (loadMissing) */
export const MISSING = "missing";

/** What a missing required module is: a module that throws as Node's `require` would, when required. */
export function loadMissing(args: OnLoadArgs): { contents: string; loader: "js"; resolveDir: string } {
  const message = `Cannot find module '${args.path}'`;
  return {
    contents: `const e = new Error(${JSON.stringify(message)}); e.code = "MODULE_NOT_FOUND"; throw e;`,
    loader: "js",
    resolveDir: "/",
  };
}

const CODE = new Set(["", ".js", ".mjs", ".cjs", ".json", ".ts", ".mts", ".cts", ".jsx", ".tsx"]);
const TRUSTED = [NODE_DIR, ...polyfillPackageDirs()].map(real);

function real(path: string): string {
  return realpathSync(path);
}

export function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The package a file of the tree belongs to (`name@version`), for messages. */
export function packageOf(path: string): string | undefined {
  const m = /\/roots\/[0-9a-f]+\/([^/]+)\/node_modules\//.exec(path);
  return m?.[1].replace("+", "/");
}

function describeAttributes(attrs: Record<string, string>): string {
  return `{ ${Object.entries(attrs).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")} }`;
}

/**
 * Import attributes may only say `type: "json"` (Node's own rule); anything else loads files as
 * it likes. An error is returned, not thrown, so that esbuild places it at the import.
 */
export function attributesError(args: Pick<OnResolveArgs, "path" | "with">): { errors: [{ text: string }] } | undefined {
  const attrs = args.with ?? {};
  const keys = Object.keys(attrs);
  if (keys.length === 0 || (keys.length === 1 && attrs.type === "json")) return undefined;
  return refused(`cannot import "${args.path}" with ${describeAttributes(attrs)}: only JSON can be imported with attributes ({ type: "json" })`);
}

const refused = (text: string): { errors: [{ text: string }] } => ({ errors: [{ text }] });

/** Whether `path`, its links followed, lies in one of `dirs` (a path that doesn't exist: no). */
function realIn(path: string, dirs: readonly (string | undefined)[]): boolean {
  let actual: string;
  try {
    actual = real(path);
  } catch {
    return false;
  }
  return dirs.some((d) => d !== undefined && isInside(d, actual));
}

/** Whether a file may be read into a bundle at all: inside the tree or our stand-ins. */
const allowedFile = (c: Confinement, path: string) => realIn(path, [c.tree, ...TRUSTED]);

/**
 * Resolves an import made by a package's file as esbuild would, then holds the result inside the
 * tree: a package sees its own files and the dependencies laid out beside it, nothing above.
 */
export async function resolveInTree(b: PluginBuild, c: Confinement, args: OnResolveArgs, specifier = args.path, resolveDir = args.resolveDir) {
  // A relative path that stays inside the tree as written stays inside it resolved (the tree's
  // only links are ours, between its packages): esbuild resolves it alone, with no round trip.
  if (/^\.{1,2}(\/|$)/.test(specifier) && c.tree !== undefined && isInside(c.tree, resolve(resolveDir, specifier))) return undefined;
  const r = await b.resolve(specifier, { kind: args.kind, importer: args.importer, resolveDir, pluginData: CONFINED, with: args.with });
  if (r.errors.length > 0) {
    // A `require()` of something that isn't there fails in Node only when it runs, and packages
    // count on that (escodegen requires its optional source-map only when asked for a map; others
    // try/catch one): it becomes a module that throws Node's MODULE_NOT_FOUND when required.
    if (args.kind === "require-call") return { path: specifier, namespace: MISSING };
    // Anything else unresolved: esbuild resolves it again by itself and fails the same way
    return undefined;
  }
  if (r.external || r.namespace !== "file") return r;
  if (realIn(r.path, [c.tree])) return r;
  const from = packageOf(args.importer);
  const bare = !/^(\.{0,2}\/|\/)/.test(args.path);
  if (bare && from && !packageOf(r.path)) return refused(`cannot import "${args.path}": it is not a dependency ${from} declares`);
  return refused(`cannot import "${args.path}"${from ? ` (in ${from})` : ""}: it resolves to a file outside the package and its dependencies`);
}

/** Is this importer a file of the installed tree (whose imports are held inside it)? */
export function inTree(c: Confinement, importer: string): boolean {
  return c.tree !== undefined && isInside(c.tree, importer);
}

/** The last wall before esbuild reads a file from disk: where it is and what it is. */
export function checkLoad(c: Confinement, args: OnLoadArgs): { errors: [{ text: string }] } | undefined {
  const bad = attributesError(args);
  if (bad) return bad;
  const where = packageOf(args.path);
  // a path outside the tree is the host's: never named (a computed import could list the disk)
  if (!allowedFile(c, args.path)) return refused(`cannot load a file outside the packages installed for this component${where ? ` (from ${where})` : ""}`);
  const shown = where ? `${where}'s ${args.path.replace(/^.*\/node_modules\/(@[^/]+\/)?[^/]+\//, "")}` : args.path;
  const ext = extname(args.path).toLowerCase();
  if (ext !== ".node" && !CODE.has(ext)) return refused(`cannot load ${shown}: only JavaScript and JSON files can be bundled`);
  return undefined;
}
