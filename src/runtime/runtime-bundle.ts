import { buildSync } from "../lib/esbuild.ts";
import { join } from "node:path";

// The in-isolate runtime (sandbox/isolate/*.js, ten ES modules) bundled into one module, once per
// service, and handed to each runner when it starts. Every new context compiles, links and
// evaluates the runtime: one module instead of ten halves that (3.4 → 1.6 ms per context,
// measured with 200 contexts), and cold starts are what many timer sources pay for. Runners
// can't bundle it themselves (no child processes in the sandbox process); without a bundle they
// load the modules one by one, as before.

// argv carries it to the runner, and one argument can't pass 128 KiB on Linux
const MAX_BYTES = 100 * 1024;

let built: string | null | undefined;

export function runtimeBundle(): string | undefined {
  if (built === undefined) {
    try {
      const out = buildSync({
        entryPoints: [join(import.meta.dirname, "sandbox", "isolate", "index.js")],
        bundle: true,
        format: "esm",
        platform: "neutral",
        write: false,
        logLevel: "silent",
      });
      const code = out.outputFiles[0]?.text;
      built = code && code.length <= MAX_BYTES ? code : null;
    } catch {
      built = null;
    }
  }
  return built ?? undefined;
}
