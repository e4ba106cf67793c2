import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

async function waitHttp(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /** the service's data directory (startService) */
  dataDir?: string;
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/** A yardstick server of this folder in its own process: bare-server.ts, or another (bare-io-server.ts). */
export async function startBare(script = "bare-server.ts"): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(import.meta.dirname, script)], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(url, child);
  return { url, child, stop: stopper(child) };
}

/** The real service (`src/main.ts` of this checkout, or of the checkout at `root`) in its own process on a fresh data dir. */
export async function startService(adminKey: string, env: Record<string, string> = {}, root = join(import.meta.dirname, "..")): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-bench-"));
  // BENCH_NODE_ARGS: Node flags for the service (--cpu-prof, --trace-gc, ...); its stdout is then shown
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(root, "src/main.ts")], {
    env: { ...process.env, PORT: String(port), TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: adminKey, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", nodeArgs.length > 0 ? "inherit" : "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/healthz`, child);
  return { url, child, stop: stopper(child), dataDir };
}
