import { createRequire } from "node:module";
import type * as Esbuild from "esbuild";

// esbuild, started with an empty environment. Its API runs a Go process (a long-lived service for
// `build`, one per call for `buildSync`) that inherits the caller's environment, and takes no
// option to change that: the service's environment holds TRIBUTARY_ADMIN_KEY, the secret key and
// DATABASE_URL, and esbuild reads files a component names. So each process is started here while
// `process.env` is empty for that one synchronous moment. `buildSync` would otherwise start its
// process from a worker thread, which copies the real environment whatever `process.env` holds
// then: ESBUILD_WORKER_THREADS=0 (read once, when esbuild loads, hence the require below) keeps
// it on this thread. Import esbuild only through this module (eslint enforces it).

process.env.ESBUILD_WORKER_THREADS = "0";
const esbuild = createRequire(import.meta.url)("esbuild") as typeof Esbuild;

export type { Message, OnLoadArgs, OnResolveArgs, Plugin, PluginBuild, BuildOptions, BuildResult, OutputFile } from "esbuild";

function withEmptyEnv<T>(fn: () => T): T {
  const saved = process.env;
  process.env = {};
  try {
    return fn();
  } finally {
    process.env = saved;
  }
}

let serviceStarted = false;

function startService(): void {
  if (serviceStarted) return;
  withEmptyEnv(() => esbuild.initialize({}));
  serviceStarted = true;
}

export const build: typeof esbuild.build = (options) => {
  startService();
  return esbuild.build(options);
};

export const transform: typeof esbuild.transform = (input, options) => {
  startService();
  return esbuild.transform(input, options);
};

/**
 * `build`, cancelled past `ms`: esbuild expands `require("../" + x)` into a file-system walk of
 * its own (a glob, which reaches no plugin), and a component must not hold the one esbuild
 * process that every save shares for as long as a walk of the host takes.
 */
export async function buildWithin<T extends Esbuild.BuildOptions>(options: T, ms: number, what: string): Promise<Esbuild.BuildResult<T>> {
  startService();
  const ctx = await esbuild.context(options as Esbuild.BuildOptions);
  let cancelled = false;
  const timer = setTimeout(() => {
    cancelled = true;
    void ctx.cancel();
  }, ms);
  try {
    return (await ctx.rebuild()) as Esbuild.BuildResult<T>;
  } catch (e) {
    if (cancelled) throw new Error(`${what} took longer than ${Math.round(ms / 1000)} s`, { cause: e });
    throw e;
  } finally {
    clearTimeout(timer);
    await ctx.dispose();
  }
}

export const buildSync: typeof esbuild.buildSync = (options) => withEmptyEnv(() => esbuild.buildSync(options));
