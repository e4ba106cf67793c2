#!/usr/bin/env node
// The `tributary` bin. The CLI is TypeScript run by Node >= 24's type stripping; this launcher
// runs under whatever `node` the shebang finds: on Node >= 24 it loads main.ts in-process, on an
// older Node it re-executes itself with the Node 24 the project ships (node_modules/node).
import { spawn } from "node:child_process";
import module from "node:module";
import process from "node:process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(realpathSync(fileURLToPath(import.meta.url)));
const main = join(here, "main.ts");
const major = Number(process.versions.node.split(".")[0]);
if (major >= 24) {
  // caches the type-stripped, compiled modules between runs (in the OS temp dir): about 100 ms
  // off every command
  module.enableCompileCache?.();
  await import(main);
} else {
  const root = join(here, "..", "..");
  const candidates = [join(root, "node_modules", "node", "bin", "node"), join(root, "node_modules", ".bin", "node")];
  const node = candidates.find((p) => existsSync(p));
  if (!node) {
    process.stderr.write(`tributary needs Node >= 24 (this is ${process.version}); run npm install in ${root}\n`);
    process.exit(1);
  }
  // the child gets the signals sent to this process (a terminal's Ctrl-C reaches both anyway), and
  // exits by itself if this process is killed outright (TRIBUTARY_LAUNCHER_PID: see main.ts)
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, TRIBUTARY_LAUNCHER_PID: String(process.pid) },
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}
