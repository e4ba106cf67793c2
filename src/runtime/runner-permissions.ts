// How a runner process is walled in: Node's permission model, reading only its own code and the
// packages it loads (docs/security.md).
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RUNNER_CACHE_DIR } from "./runner-entry.ts";
import { bufferPackageDirs } from "./sandbox/buffer-source.ts";
import { webStreamsPackageDir } from "./sandbox/web-streams-source.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const packageDir = (name: string, from = import.meta.url) => dirname(createRequire(from).resolve(`${name}/package.json`));
const IVM_DIR = packageDir("isolated-vm");

// What the runner may read: its own code and the packages it loads, nothing else of the
// repository. Not the whole repository: the default data directory (./data, with the secret key
// and the database) lives there, and so may .git or an operator's .env.
const READABLE = [
  join(REPO_ROOT, "src"),
  join(REPO_ROOT, "package.json"),
  RUNNER_CACHE_DIR,
  IVM_DIR,
  packageDir("node-gyp-build", pathToFileURL(join(IVM_DIR, "package.json")).href),
  packageDir("undici"),
  // an error's stack in a bundle, back to the user's lines (sandbox/stack-map.ts)
  packageDir("@jridgewell/sourcemap-codec"),
  // the isolate's Buffer global (sandbox/buffer-source.ts)
  ...bufferPackageDirs(),
  // the isolate's stream globals (sandbox/web-streams-source.ts)
  webStreamsPackageDir(),
];

/** Node's flags for a runner process. */
export const RUNNER_EXEC_ARGV = [
  "--permission",
  ...READABLE.map((path) => `--allow-fs-read=${path}`),
  // node-gyp-build probes this file to pick isolated-vm's prebuilt binary.
  "--allow-fs-read=/etc/alpine-release",
  // isolated-vm is a native addon; without this the runner can't load it.
  "--allow-addons",
  // isolated-vm requires it on Node >= 20.
  "--no-node-snapshot",
  // "--allow-addons may invalidate the permission model": known and accepted, don't print it per fork.
  "--disable-warning=PERM0001",
  // Components get no WebAssembly (isolate/runtime.js); should one ever reach it, a Memory is
  // capped at 2,048 pages of 64 KiB, the isolate's own limit, since it lives outside that heap.
  "--wasm-max-mem-pages=2048",
];
