// Loads the in-isolate runtime (isolate/*.js) into a context: plain ES modules linked by their
// relative imports, read once per runner process and compiled from V8's code cache afterwards.
import ivm from "isolated-vm";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileCached } from "./compile-cache.ts";
import { POOLED, type IsolateCalls } from "./isolate-calls.ts";
import type { EnvText } from "../../protocol.ts";
import { SANDBOX_DIR } from "../sandbox-dir.ts";

const DIR = join(SANDBOX_DIR, "isolate");
let sources: Map<string, string> | undefined;

function source(file: string): string {
  if (!sources) {
    sources = new Map(readdirSync(DIR).filter((f) => f.endsWith(".js")).map((f) => [f, readFileSync(join(DIR, f), "utf8")]));
  }
  const code = sources.get(file);
  if (code === undefined) throw new Error(`runtime module ${file} not found`);
  return code;
}

let bundle: string | undefined;

/** The runtime bundled into one module by the host (runtime-bundle.ts): loaded instead of the files. */
export function useRuntimeBundle(code: string): void {
  bundle = code;
}

/** Evaluates isolate/index.js and returns its namespace. */
export async function loadRuntime(isolate: ivm.Isolate, context: ivm.Context, calls: IsolateCalls = POOLED): Promise<ivm.Reference> {
  if (bundle !== undefined) {
    const mod = await compileCached(isolate, "runtime:bundle", bundle, "tributary:runtime.js", calls);
    await calls.instantiate(mod, context, (specifier) => {
      throw new Error(`the runtime bundle imports ${specifier}`);
    });
    await calls.evaluate(mod);
    return mod.namespace;
  }
  const modules = new Map<string, ivm.Module>();
  const load = async (file: string): Promise<ivm.Module> => {
    let mod = modules.get(file);
    if (mod) return mod;
    mod = await compileCached(isolate, `runtime:${file}`, source(file), `tributary:${file}`, calls);
    modules.set(file, mod);
    for (const specifier of mod.dependencySpecifiers) await load(specifier.replace(/^\.\//, ""));
    return mod;
  };
  const index = await load("index.js");
  await calls.instantiate(index, context, (specifier) => modules.get(specifier.replace(/^\.\//, ""))!);
  await calls.evaluate(index);
  return index.namespace;
}

export interface PreparedContext {
  context: ivm.Context;
  /** isolate/index.js's namespace */
  runtime: ivm.Reference;
}

/**
 * A new context with the sandbox globals installed, connected to the runner through `host`;
 * `env` is process.env until the first invocation brings its own (none: empty).
 */
export async function prepareContext(isolate: ivm.Isolate, host: ivm.Reference, calls: IsolateCalls = POOLED, env?: EnvText): Promise<PreparedContext> {
  const context = await calls.createContext(isolate);
  const runtime = await loadRuntime(isolate, context, calls);
  const install = await calls.get(runtime, "install");
  await calls.apply(install, [host, env?.version, env?.json]);
  return { context, runtime };
}
