import { isBuiltin } from "node:module";
import { isProvidedModule } from "../sandbox/provided/index.ts";

// What an import in a component names. Pipedream pins versions inside the specifier
// (`lodash@4.17.21`, `@octokit/core@5.0.0/dist/x.js`), so the version is read off it here and the
// rest is resolved as usual.

export type Specifier =
  | { kind: "provided"; name: string }
  | { kind: "builtin"; name: string }
  | { kind: "relative"; path: string }
  | { kind: "package"; name: string; range: string; subpath: string };

// Node's modules a component may use (polyfilled or bridged to the runner), and those it may not.
export const NODE_BUILTINS = new Set([
  "assert", "buffer", "crypto", "diagnostics_channel", "events", "http", "https", "os", "path", "process", "querystring", "stream",
  "string_decoder", "timers", "tty", "url", "util", "zlib", "net", "tls", "dns", "fs", "fs/promises",
]);
export const FORBIDDEN_BUILTINS = new Set([
  "child_process", "dgram", "worker_threads", "cluster", "vm", "http2",
  "inspector", "v8", "repl", "module", "readline", "perf_hooks", "async_hooks",
  "trace_events", "wasi", "sqlite", "test",
]);

const NAME = /^(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)/i;

export function parseSpecifier(spec: string): Specifier {
  if (/^(\.{1,2}(\/|$)|\/)/.test(spec)) return { kind: "relative", path: spec };
  const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
  const root = bare.split("/")[0];
  // any name Node has (timers/promises, assert/strict, punycode...) is Node's module, never an npm package
  if (spec.startsWith("node:") || NODE_BUILTINS.has(bare) || FORBIDDEN_BUILTINS.has(bare) || FORBIDDEN_BUILTINS.has(root) || isBuiltin(bare)) {
    // a provided module of the same name (crypto, url, querystring) wins for plain imports
    if (!spec.startsWith("node:") && isProvidedModule(bare)) return { kind: "provided", name: bare };
    return { kind: "builtin", name: bare };
  }
  if (isProvidedModule(spec)) return { kind: "provided", name: spec };
  const m = NAME.exec(spec);
  if (!m) throw new Error(`"${spec}" is not a package name`);
  const name = m[1];
  let rest = spec.slice(name.length);
  let range = "";
  if (rest.startsWith("@")) {
    const end = rest.indexOf("/");
    range = end === -1 ? rest.slice(1) : rest.slice(1, end);
    rest = end === -1 ? "" : rest.slice(end);
  }
  if (rest !== "" && !rest.startsWith("/")) throw new Error(`"${spec}" is not a package name`);
  // a subpath names a file inside the package: `..` (or `.`, an empty segment, a backslash) could
  // only climb out of it, into the cache or the host
  if (rest !== "" && rest !== "/" && rest.slice(1).replace(/\/$/, "").split("/").some((seg) => seg === "" || seg === "." || seg === ".." || seg.includes("\\"))) {
    throw new Error(`a package's subpath may not contain ".", ".." or empty segments (it must stay inside the package)`);
  }
  return { kind: "package", name, range: range || "latest", subpath: rest };
}

/** `@scope/*` or an exact name, as TRIBUTARY_NPM_ALLOW lists them; an empty list allows all. */
export function packageAllowed(name: string, allow: readonly string[]): boolean {
  if (allow.length === 0) return true;
  return allow.some((a) => a === name || (a.endsWith("/*") && name.startsWith(a.slice(0, -1))));
}
