import { buildWithin, type Message, type Plugin } from "../../lib/esbuild.ts";
import { realpathSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname } from "node:path";
import { AppError } from "../../lib/errors.ts";
import { installTree, resolveTree } from "./install.ts";
import { builtinFile, FORBIDDEN_FILE, GLOBALS, isBridgeFile } from "./node-builtins.ts";
import { Registry } from "./registry.ts";
import { attributesError, checkLoad, CONFINED, inTree, loadMissing, MISSING, packageOf, resolveInTree, type Confinement } from "./confine.ts";
import { FORBIDDEN_BUILTINS, packageAllowed, parseSpecifier, type Specifier } from "./specifier.ts";
import { isProvidedModule } from "../sandbox/provided/index.ts";
import { withLineMap } from "../sandbox/stack-map.ts";
import { isCommonJs } from "../sandbox/load/module-kind.ts";
import { ENTRY_DIR, entryName, isOwn, ownFiles, RemoteFiles } from "./own-files.ts";
import { SloppyCommonJs } from "./sloppy.ts";

// At save, a component that imports npm packages, Node modules or files of its own is bundled
// with them (esbuild) into one ES module that imports only the provided modules: what the
// runner loads, compiled once per hash like any component. Code that needs none of that is left
// exactly as written.

export interface BundlerOptions {
  /** the data directory's package cache */
  cacheDir: string;
  /** TRIBUTARY_NPM: off = provided modules and Node's modules only, no registry */
  npm: boolean;
  registryUrl: string;
  /** TRIBUTARY_NPM_ALLOW: names or `@scope/*`; empty = all */
  npmAllow: readonly string[];
  fetchAllow: readonly string[];
  /** the package cache's size cap, MiB */
  cacheMb: number;
  /** unpacked MiB per package and per save, files per package (limits.ts) */
  maxPackageMb: number;
  maxSaveMb: number;
  maxFiles: number;
  /** the largest package metadata read from the registry, MiB */
  maxPackumentMb: number;
  /** TRIBUTARY_SAVE_TIMEOUT_MS: what installing and bundling one save may take in all */
  saveTimeoutMs?: number;
}

export interface Bundled {
  code: string;
  /** every package version bundled, `name@version` */
  packages: string[];
}

const BUNDLE_MAX_BYTES = 32 * 1024 * 1024;
const BUILD_TIMEOUT_MS = 60_000;
const SAVE_TIMEOUT_MS = 300_000;
const COMPUTED = "the component imports a computed path (require or import() of a string built at run time): import files by their names";
// names Node code uses as globals that the sandbox lacks: their presence alone makes a component
// worth bundling (Buffer, process, AbortController and AbortSignal are the sandbox's own globals)
const NODE_GLOBALS = /\b(global|__dirname|__filename)\b/;
// what Node code reads of its environment, fixed in the bundle
const DEFINE = { "process.env.NODE_ENV": '"production"', global: "globalThis", __dirname: '"/"', __filename: '"/component.mjs"' };

interface Scan {
  imports: Array<{ spec: Specifier; raw: string; kind: string }>;
  files: number;
}

export class Bundler {
  readonly #o: BundlerOptions;
  readonly #registry: Registry;

  constructor(opts: BundlerOptions) {
    this.#o = opts;
    this.#registry = new Registry({ url: opts.registryUrl, fetchAllow: opts.fetchAllow, maxPackumentBytes: opts.maxPackumentMb * 1024 * 1024 });
  }

  /** The bundled module, or null when the code needs no bundling. Throws AppError("invalid_component"). */
  async bundle(code: string, url: string | null): Promise<Bundled | null> {
    // Past the limit the save is answered with why; what is still being installed goes on into
    // the cache (each download has its own deadline), where the next save finds it.
    const ms = this.#o.saveTimeoutMs ?? SAVE_TIMEOUT_MS;
    const work = this.#bundle(code, url);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        work.catch(() => {});
        reject(new AppError("invalid_component", `installing the component's packages and bundling it took longer than ${ms / 1000} s (TRIBUTARY_SAVE_TIMEOUT_MS)`));
      }, ms);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #bundle(code: string, url: string | null): Promise<Bundled | null> {
    const remote = new RemoteFiles();
    const scan = await this.#scan(code, url, remote);
    const own = scan.imports;
    // An ES module has no `require` (CommonJS is given one when loaded): one that requires even a
    // provided module is bundled, so the bundle's own `require` (requireBanner) hands it the module
    // as an import would.
    const requiresInEsm = !isCommonJs(code) && own.some((i) => i.kind === "require-call");
    if (scan.files === 0 && own.every((i) => i.spec.kind === "provided") && !requiresInEsm && !NODE_GLOBALS.test(code)) return null;

    const packages = new Map<string, string>();
    for (const { spec, raw } of own) {
      if (spec.kind === "builtin") {
        if (FORBIDDEN_BUILTINS.has(spec.name) || FORBIDDEN_BUILTINS.has(spec.name.split("/")[0]) || !builtinFile(spec.name)) {
          throw new AppError("invalid_component", `cannot import "${raw}": Node's ${spec.name} module is not available in the sandbox`);
        }
      } else if (spec.kind === "package") {
        if (!this.#o.npm) throw new AppError("invalid_component", `cannot import "${raw}": npm packages are turned off on this server (TRIBUTARY_NPM=off)`);
        if (!packageAllowed(spec.name, this.#o.npmAllow)) throw new AppError("invalid_component", `cannot import "${raw}": ${spec.name} is not among the packages this server allows (TRIBUTARY_NPM_ALLOW)`);
        const other = packages.get(spec.name);
        if (other !== undefined && other !== spec.range && spec.range !== "latest" && other !== "latest") {
          throw new AppError("invalid_component", `cannot import "${raw}": ${spec.name} is imported at two versions (${other} and ${spec.range})`);
        }
        if (other === undefined || other === "latest") packages.set(spec.name, spec.range);
      }
    }

    // Pipedream's component packages import packages they don't declare (Pipedream installs
    // whatever a component's files import): those found while bundling are installed beside the
    // component's own, and the bundle made again (once: what they import, they declare)
    for (let round = 0; ; round++) {
      const undeclared = new Set<string>();
      let resolveDirs = new Map<string, string>();
      let installed: string[] = [];
      let release = () => {};
      if (packages.size > 0) {
        try {
          const tree = await resolveTree(this.#registry, [...packages].map(([name, range]) => ({ name, range })));
          const out = await installTree(this.#registry, this.#o.cacheDir, tree, this.#o);
          resolveDirs = out.resolveDirs;
          installed = out.packages;
          release = out.release;
        } catch (e) {
          throw new AppError("invalid_component", (e as Error).message);
        }
      }
      try {
        const provided = own.filter((i) => i.spec.kind === "provided");
        const text = await this.#build(code, url, resolveDirs, remote, provided, undeclared);
        if (Buffer.byteLength(text) > BUNDLE_MAX_BYTES) {
          throw new AppError("invalid_component", `the bundled component is over ${BUNDLE_MAX_BYTES / 1048576} MiB`);
        }
        return { code: text, packages: installed };
      } catch (e) {
        const more = [...undeclared].filter((name) => !packages.has(name) && packageAllowed(name, this.#o.npmAllow));
        if (round > 0 || more.length === 0) throw e;
        for (const name of more) packages.set(name, "latest");
      } finally {
        // bundled: the cache may prune the tree again
        release();
      }
    }
  }

  // What the component's own code (and its own files) imports: nothing is resolved but its files.
  async #scan(code: string, url: string | null, remote: RemoteFiles): Promise<Scan> {
    const imports: Scan["imports"] = [];
    const plugin: Plugin = {
      name: "tributary-scan",
      setup: (b) => {
        ownFiles(b, url, remote, this.#o.fetchAllow);
        // everything the scan resolves is external; a file it would load comes from esbuild
        // expanding a computed path (require("../" + x)) into a glob of the disk
        b.onLoad({ filter: /.*/, namespace: "file" }, () => ({ errors: [{ text: COMPUTED }] }));
        b.onResolve({ filter: /.*/ }, (args) => {
          const bad = attributesError(args);
          if (bad) return bad;
          const spec = parse(args.path);
          if ("errors" in spec) return spec;
          imports.push({ spec, raw: args.path, kind: args.kind });
          return { path: args.path, external: true };
        });
      },
    };
    await run(() =>
      buildWithin(
        { stdin: { contents: code, sourcefile: entryName(code), loader: "js", resolveDir: ENTRY_DIR }, bundle: true, write: false, format: "esm", logLevel: "silent", plugins: [plugin] },
        BUILD_TIMEOUT_MS,
        "reading the component's imports",
      ),
    );
    return { imports, files: remote.size };
  }

  async #build(code: string, url: string | null, resolveDirs: Map<string, string>, remote: RemoteFiles, provided: Scan["imports"], undeclared: Set<string>): Promise<string> {
    const required = [...new Set(provided.filter((p) => p.kind === "require-call").map((p) => p.raw))];
    const first = resolveDirs.values().next();
    const confinement: Confinement = { tree: first.done ? undefined : realpathSync(dirname(first.value)) };
    // packages' CommonJS runs sloppy, as in Node, unless it says "use strict"
    const sloppy = confinement.tree === undefined ? undefined : new SloppyCommonJs(confinement.tree, DEFINE);
    const plugin: Plugin = {
      name: "tributary",
      setup: (b) => {
        b.onResolve({ filter: /.*/ }, (args) => attributesError(args));
        ownFiles(b, url, remote, this.#o.fetchAllow);
        b.onResolve({ filter: /.*/ }, async (args) => {
          if (args.pluginData === CONFINED) return undefined;
          if (isOwn(args)) {
            const spec = parse(args.path);
            if ("errors" in spec) return spec;
            if (spec.kind === "provided") return { path: spec.name, external: true };
            // a pinned `name@version/sub` is resolved as `name/sub` from the installed tree
            if (spec.kind === "package") {
              const dir = resolveDirs.get(spec.name);
              if (!dir) return undefined;
              return resolveInTree(b, confinement, args, spec.name + spec.subpath, dir);
            }
            return builtin(spec.kind === "builtin" ? spec.name : args.path);
          }
          // our bridges build on the provided modules of the same name
          if (isBridgeFile(args.importer) && isProvidedModule(args.path)) return { path: args.path, external: true };
          // packages get Node's semantics: a core module's name means the core module
          const path = /^(\.{0,2}\/|\/)/.test(args.path) ? undefined : builtin(args.path.startsWith("node:") ? args.path.slice(5) : args.path);
          if (path) return path;
          // anything else a package's file imports stays inside its tree
          if (!inTree(confinement, args.importer)) return undefined;
          const r = await resolveInTree(b, confinement, args);
          if (r !== undefined || args.kind !== "import-statement" || !packageOf(args.importer)?.startsWith("@pipedream/")) return r;
          // a package one of Pipedream's imports without declaring it: the one installed beside
          // the component's own (else noted, to be installed)
          const spec = parse(args.path);
          if ("errors" in spec) return undefined;
          // one the sandbox provides (axios, @pipedream/platform): that one, as in a component's own code
          if (spec.kind === "provided") return { path: spec.name, external: true };
          if (spec.kind !== "package") return undefined;
          const dir = resolveDirs.get(spec.name);
          if (dir) return resolveInTree(b, confinement, args, spec.name + spec.subpath, dir);
          undeclared.add(spec.name);
          return undefined;
        });
        // the last wall: nothing is read from disk but the tree's and our own files
        b.onLoad({ filter: /.*/, namespace: "file" }, async (args) => checkLoad(confinement, args) ?? (await sloppy?.load(args.path)));
        b.onLoad({ filter: /.*/, namespace: MISSING }, loadMissing);
        b.onLoad({ filter: /.*/, namespace: "forbidden" }, (args) => ({
          contents: `module.exports = require(${JSON.stringify(FORBIDDEN_FILE)})(${JSON.stringify(args.path)});`,
          resolveDir: "/",
        }));
        b.onLoad({ filter: /\.node$/ }, (args) => {
          throw new Error(`${args.path} is a native addon, which the sandbox can't load`);
        });
      },
    };
    const banner = requireBanner(required);
    const once = (inject: string[]) =>
      run(() =>
        buildWithin({
          stdin: { contents: code, sourcefile: entryName(code), loader: "js", resolveDir: ENTRY_DIR },
          bundle: true,
          write: false,
          format: "esm",
          platform: "node",
          target: "es2022",
          logLevel: "silent",
          inject,
          define: DEFINE,
          banner: banner ? { js: banner } : undefined,
          plugins: [plugin],
          legalComments: "none",
          charset: "utf8",
          // the map lets an error's stack name the user's own lines (sandbox/stack-map.ts)
          sourcemap: "external",
          sourcesContent: false,
          outfile: "/bundle.mjs",
        }, BUILD_TIMEOUT_MS, "bundling the component"),
      );
    const parts = (r: Awaited<ReturnType<typeof once>>) => {
      const files = r.outputFiles!;
      return { js: files.find((f) => f.path.endsWith(".mjs"))!.text, map: files.find((f) => f.path.endsWith(".map"))?.text };
    };
    // Injected globals are included whether used or not (their polyfills are CommonJS), so the
    // bundle is made once without them, and again with those whose names it still leaves free.
    // Only the bundle kept gets its map of the user's lines.
    let out = parts(await once([]));
    const needed = GLOBALS.filter((g) => g.names.test(out.js)).map((g) => g.file);
    if (needed.length > 0) out = parts(await once(needed));
    return out.map ? withLineMap(out.js, out.map, entryName(code)) : out.js;
  }
}

/** A Node module's stand-in (polyfill, bridge, or a stub that fails when used); else esbuild resolves it. */
function builtin(name: string) {
  // `process/` (the npm shim, asked for by path) means Node's process too: index.js would hand
  // out `global.process`, which the sandbox doesn't have
  const file = builtinFile(name === "process/" ? "process" : name);
  if (file) return { path: file };
  // any other module of Node's (listed or not): loads, and fails only when called
  if (FORBIDDEN_BUILTINS.has(name) || FORBIDDEN_BUILTINS.has(name.split("/")[0]) || isBuiltin(name)) return { path: name, namespace: "forbidden" };
  return undefined;
}

/** What an import names, or the error esbuild reports at the import (an error thrown would point into esbuild). */
function parse(raw: string): Specifier | { errors: [{ text: string }] } {
  try {
    return parseSpecifier(raw);
  } catch (e) {
    return { errors: [{ text: `cannot import "${raw}": ${(e as Error).message}` }] };
  }
}

// CommonJS code requiring a provided module: the bundle's `require` hands it the module the way
// Node interop would (its default export stands for module.exports).
function requireBanner(names: string[]): string {
  if (names.length === 0) return "";
  const imports = names.map((n, i) => `import * as __tributary_p${i} from ${JSON.stringify(n)};`).join("\n");
  const cases = names.map((n, i) => `${JSON.stringify(n)}: __tributary_p${i}`).join(", ");
  return `${imports}
const __tributary_provided = { ${cases} };
const require = (name) => {
  const ns = __tributary_provided[name];
  if (ns === undefined) throw new Error('cannot require "' + name + '"');
  return "default" in ns ? ns.default : ns;
};`;
}

async function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError) throw e;
    const errors = (e as { errors?: Message[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      throw new AppError("invalid_component", errors.slice(0, 3).map(describe).join("; "));
    }
    throw new AppError("invalid_component", (e as Error).message);
  }
}

function describe(m: Message): string {
  const file = m.location?.file ?? "";
  const own = /tributary-component\/component\.[cm]js$/.test(file) || /^https?:/.test(file);
  const shown = own ? (/^https?:/.test(file) ? file : file.replace(/^.*\//, "")) : file.replace(/^.*\/roots\/[0-9a-f]+\/[^/]+\/node_modules\//, "");
  const where = m.location ? ` (${shown}:${m.location.line}:${m.location.column})` : "";
  const missing = /Could not resolve "([^"]+)"/.exec(m.text);
  if (missing) return `cannot import "${missing[1]}"${where}: it is not installed or not available in the sandbox`;
  // a plugin's message (ours: a refused import) is no syntax error
  return own && !m.pluginName ? `syntax error: ${m.text}${where}` : `${m.text}${where}`;
}
