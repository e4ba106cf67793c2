import { buildSync } from "../lib/esbuild.ts";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SANDBOX_DIR } from "./sandbox/sandbox-dir.ts";

// The runner process starts from one plain CommonJS file, bundled from sandbox/runner-main.ts by
// the service (esbuild), not from the TypeScript sources. Loading .ts makes Node compile its type
// stripper, a large WebAssembly module, in the background of every young runner, and V8 can
// deadlock when that compile triggers a WebAssembly code GC while isolated-vm disposes an isolate
// (seen here in gdb: WasmEngine::TriggerGC releases the last reference to the isolate, whose
// teardown then waits on the engine's own lock; the next `new Isolate` waits forever). About one
// young runner in 300 hung that way. CommonJS also spares the ESM loader's CJS export lexer
// (WebAssembly too) for isolated-vm. Without a writable cache the runner starts from the sources.

const SOURCE_ENTRY = join(SANDBOX_DIR, "runner-main.ts");
export const RUNNER_CACHE_DIR = resolve(import.meta.dirname, "../../node_modules/.cache/tributary-runner");

let entry: string | undefined;

/** The file a runner process starts from: the bundle when it could be made, else the sources. */
export function runnerEntry(): string {
  entry ??= bundleEntry() ?? SOURCE_ENTRY;
  return entry;
}

function bundleEntry(): string | undefined {
  try {
    const out = buildSync({
      entryPoints: [SOURCE_ENTRY],
      bundle: true,
      write: false,
      format: "cjs",
      platform: "node",
      target: "node24",
      // isolated-vm is a native addon, resolved from the repository's node_modules
      packages: "external",
      // sandbox-dir.ts is the one module that asks where it is
      define: { "import.meta.dirname": JSON.stringify(SANDBOX_DIR) },
      logLevel: "silent",
    });
    const code = out.outputFiles[0]?.text;
    if (!code) return undefined;
    const file = join(RUNNER_CACHE_DIR, `runner-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.cjs`);
    if (!existsSync(file)) {
      mkdirSync(RUNNER_CACHE_DIR, { recursive: true });
      // written aside and renamed: a runner of a service starting alongside never reads half a file
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, code);
        renameSync(tmp, file);
      } finally {
        rmSync(tmp, { force: true });
      }
    }
    return file;
  } catch {
    return undefined;
  }
}
