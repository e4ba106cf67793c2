import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import { transform } from "../../lib/esbuild.ts";
import { isInside, packageOf } from "./confine.ts";

// Node runs a CommonJS module in sloppy mode unless it says "use strict", and packages count on
// it: slackify-html assigns an undeclared `entities`, others set a read-only property or call a
// function whose `this` they expect to be the global. A bundle is an ES module, strict all
// through. So a package's CommonJS file that doesn't say "use strict" is bundled as a stub that
// evaluates the file's text the way Node does: as a function of (exports, require, module,
// __filename, __dirname), compiled by an indirect eval, which is sloppy (the isolate caches such
// compiles across contexts, so this costs about what the module's own evaluation costs). The
// stub keeps the file's literal require() calls, so esbuild still bundles what it requires, held
// in the tree as any import of the package is. Everything else (the component's own code, ES
// modules, CommonJS that says "use strict") is bundled as it is, but for one rewrite Node needs
// no help with: a require of a file named from __dirname.

const SCRIPT = new Set(["", ".js", ".cjs"]);
// what marks a file as CommonJS to esbuild (and to us: a file with neither is left alone)
const COMMONJS = /\b(module\.exports|exports\.[\w$]+|exports\[|require\s*\()/;
// import/export statements, import.meta or import(): an ES module, which esbuild bundles as such
const ESM = /^[^\S\r\n]*(import[\s{*"'(.]|export\b)|\bimport\s*[.(]/m;
// require(__dirname + "/x") and require(path.join(__dirname, "x")) name a file beside the module
// (pg-format): a path esbuild can't follow, since the bundle's __dirname is "/"
const DIRNAME_REQUIRE = [
  /\brequire\(\s*__dirname\s*\+\s*(["'])\/([^"'\\\n]+)\1\s*\)/g,
  /\brequire\(\s*(?:path\.)?join\(\s*__dirname\s*,\s*(["'])(?:\.\/)?([^"'\\\n]+)\1\s*\)\s*\)/g,
];
const LITERAL_REQUIRE = /\brequire\s*\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`\\$\n]*`)\s*\)/g;
// the identifiers the module's function gets: Node's five and `global`
const PARAMS = "exports, require, module, __filename, __dirname, global";
// The globals the bundle gives its strict modules, when the file names them (both kinds then
// share one Buffer): bound in a scope around the module's function, which the module may
// shadow with its own `let Buffer` (a parameter of that name would make that a SyntaxError).
const SHARED = ["Buffer", "process"];

export class SloppyCommonJs {
  readonly #tree: string;
  /** a folder → the `type` of the package.json nearest above it (inside the tree) */
  readonly #types = new Map<string, string | undefined>();
  readonly #define: Record<string, string>;
  /** stubs made, by path: the bundle is built twice */
  readonly #made = new Map<string, Promise<{ contents: string; loader: "js"; resolveDir: string } | undefined>>();

  constructor(tree: string, define: Record<string, string>) {
    this.#tree = tree;
    this.#define = define;
  }

  /** The stub for `path` when it is a package's sloppy CommonJS file; else undefined (bundled as it is). */
  load(path: string): Promise<{ contents: string; loader: "js"; resolveDir: string } | undefined> {
    let made = this.#made.get(path);
    if (!made) this.#made.set(path, (made = this.#make(path)));
    return made;
  }

  async #make(file: string): Promise<{ contents: string; loader: "js"; resolveDir: string } | undefined> {
    const ext = extname(file).toLowerCase();
    // checkLoad has let the file in: inside the tree, its links followed
    const path = realpathSync(file);
    if (!SCRIPT.has(ext) || !isInside(this.#tree, path)) return undefined;
    if (ext !== ".cjs" && this.#typeOf(dirname(path)) === "module") return undefined;
    const read = readFileSync(path, "utf8");
    const text = DIRNAME_REQUIRE.reduce((t, re) => t.replace(re, (_m, _q, rel: string) => `require(${JSON.stringify("./" + rel)})`), read);
    if (!COMMONJS.test(text) || ESM.test(text) || saysUseStrict(text)) {
      return text === read ? undefined : { contents: text, loader: "js", resolveDir: dirname(file) };
    }
    let code: string;
    try {
      // process.env.NODE_ENV and friends, as the bundle's strict modules see them; comments go
      code = (await transform(text, { loader: "js", define: this.#define, legalComments: "none", charset: "utf8" })).code;
    } catch {
      return undefined; // esbuild reports the file's syntax error itself
    }
    const literals = [...code.matchAll(LITERAL_REQUIRE)];
    // A require of a computed path (require("./locale/" + name)) is one esbuild resolves itself,
    // globbing the package's own files and refusing any outside it: a stub would hide it from
    // esbuild, so such a file is bundled as it is (strict), as before.
    if ((code.match(/\brequire\s*\(/g)?.length ?? 0) > literals.length) {
      return text === read ? undefined : { contents: text, loader: "js", resolveDir: dirname(file) };
    }
    const names = [...new Set(literals.map((m) => literal(m[1])))];
    const where = `${packageOf(path) ?? "package"}/${relative(this.#tree, path).replace(/^.*\/node_modules\/(@[^/]+\/)?[^/]+\//, "")}`.replace(/[\r\n\u2028\u2029]/g, "");
    const shared = SHARED.filter((g) => new RegExp(`\\b${g}\\b`).test(code)).join(", ");
    const fn = `(function (${shared}) { return function (${PARAMS}) {${code}\n}; })\n//# sourceURL=${where}`;
    return { contents: stub(names, fn, shared), loader: "js", resolveDir: dirname(file) };
  }

  #typeOf(dir: string): string | undefined {
    if (this.#types.has(dir)) return this.#types.get(dir);
    let type: string | undefined;
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        type = (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type === "module" ? "module" : "commonjs";
      } catch {
        type = "commonjs";
      }
    } else if (dir !== this.#tree && isInside(this.#tree, dirname(dir))) {
      type = this.#typeOf(dirname(dir));
    }
    this.#types.set(dir, type);
    return type;
  }
}

function literal(quoted: string): string {
  return quoted.startsWith("`") ? quoted.slice(1, -1) : (JSON.parse(quoted.startsWith("'") ? `"${quoted.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : quoted) as string);
}

/** Whether the directive prologue (after comments and a hashbang) holds "use strict". */
export function saysUseStrict(text: string): boolean {
  const skip = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|#![^\n]*)*/;
  let rest = text;
  for (;;) {
    rest = rest.replace(skip, "");
    const m = /^("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')[^\S\n]*(;|\n|(?=\/[/*])|$)/.exec(rest);
    if (!m) return false;
    if (m[1].slice(1, -1) === "use strict") return true;
    rest = rest.slice(m[0].length);
  }
}

function stub(names: string[], fn: string, shared: string): string {
  const deps = names.map((n) => `  ${JSON.stringify(n)}: () => require(${JSON.stringify(n)}),`).join("\n");
  return `const deps = {
${deps}
};
const need = function require(name) {
  if (Object.prototype.hasOwnProperty.call(deps, name)) return deps[name]();
  const e = new Error("Cannot find module '" + name + "'");
  e.code = "MODULE_NOT_FOUND";
  throw e;
};
need.resolve = (name) => {
  if (Object.prototype.hasOwnProperty.call(deps, name)) return name;
  return need(name);
};
need.cache = {};
(0, eval)(${JSON.stringify(fn)})(${shared}).call(module.exports, module.exports, need, module, __filename, __dirname, globalThis);
`;
}
