import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

// Where each Node module a component may import comes from inside the sandbox: well-kept
// browser polyfills from this service's own dependencies, or our bridges to the runner
// (crypto, http, https). Resolved once, to files the bundler reads.

const require = createRequire(import.meta.url);
export const NODE_DIR = join(import.meta.dirname, "../sandbox/node");
/**
 * The folders of the npm packages the stand-ins are made of, with their dependencies: what a
 * bundle may read from the service's own node_modules, and nothing else of it.
 */
export function polyfillPackageDirs(): string[] {
  const dirs = new Set<string>();
  const visit = (name: string, from: string) => {
    let dir: string;
    try {
      dir = dirname(createRequire(from).resolve(`${name}/package.json`));
    } catch {
      return; // an optional dependency that isn't installed
    }
    if (dirs.has(dir)) return;
    dirs.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, join(dir, "package.json"));
  };
  const roots = [...Object.values(POLYFILLS).map((spec) => spec.split("/")[0]), "browserify-zlib", "readable-stream", "buffer", "util", "assert"];
  for (const name of new Set(roots)) visit(name, import.meta.filename);
  return [...dirs];
}

const POLYFILLS: Record<string, string> = {
  assert: "assert/",
  events: "events/",
  os: "os-browserify/browser.js",
  path: "path-browserify",
  punycode: "punycode/",
  querystring: "querystring-es3",
  string_decoder: "string_decoder/",
  timers: "timers-browserify",
  url: "url/",
};

const BRIDGES: Record<string, string> = {
  // the buffer package, with Node's constants beside it
  buffer: "buffer.js",
  crypto: "crypto.js",
  http: "http-module.js",
  https: "https-module.js",
  zlib: "zlib.js",
  // client sockets and DNS, carried by the runner under the address guard (sandbox/sockets/sockets.ts)
  net: "net.js",
  tls: "tls.js",
  dns: "dns.js",
  tty: "tty.js",
  diagnostics_channel: "diagnostics-channel.js",
  // the legacy url API, with the WHATWG classes Node exports beside it
  url: "url.js",
  // readable-stream, with the Readable.fromWeb it lacks
  stream: "stream.cjs",
  // the util package, with Node's TextEncoder and TextDecoder beside it
  util: "util.cjs",
  // an in-memory /tmp; every other path missing, as Node says it
  fs: "fs.cjs",
  // the sandbox's own `process` global (isolate/process.js): one process.env per run, for all
  process: "process.cjs",
};

let resolved: Map<string, string> | undefined;

/** The file that stands for Node's module `name` (without `node:`), or undefined when it has none. */
export function builtinFile(name: string): string | undefined {
  if (!resolved) {
    resolved = new Map();
    for (const [mod, spec] of Object.entries(POLYFILLS)) resolved.set(mod, require.resolve(spec));
    for (const [mod, file] of Object.entries(BRIDGES)) resolved.set(mod, join(NODE_DIR, file));
    // subpaths packages reach for
    resolved.set("stream/promises", require.resolve("readable-stream/lib/stream/promises.js"));
    resolved.set("util/types", join(NODE_DIR, "util-types.js"));
    resolved.set("path/posix", require.resolve("path-browserify"));
    resolved.set("assert/strict", join(NODE_DIR, "assert-strict.js"));
    resolved.set("timers/promises", join(NODE_DIR, "timers-promises.js"));
    resolved.set("fs/promises", join(NODE_DIR, "fs-promises.cjs"));
    resolved.set("stream/web", join(NODE_DIR, "stream-web.js"));
    resolved.set("dns/promises", join(NODE_DIR, "dns-promises.js"));
  }
  return resolved.get(name);
}

/** Globals Node code takes for granted, injected (module-scoped) only into bundles that name them. */
export const GLOBALS = [
  { names: /\bBuffer\b/, file: join(NODE_DIR, "global-buffer.js") },
  { names: /\bprocess\b/, file: join(NODE_DIR, "global-process.js") },
  { names: /\bAbort(Controller|Signal)\b/, file: join(NODE_DIR, "global-abort.js") },
];
export const FORBIDDEN_FILE = join(NODE_DIR, "forbidden.cjs");
/** our bridges import the provided modules by their plain names: those stay provided */
export const isBridgeFile = (path: string) => path.startsWith(NODE_DIR);
