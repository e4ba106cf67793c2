import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The service the probe deploys to: src/main.ts in its own process on a fresh data dir (as
// bench/processes.ts starts it), and a small client for its API.

export interface Service {
  url: string;
  adminKey: string;
  dataDir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface Reply {
  status: number;
  body: any;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** Starts the service with `env` on top of this process's; resolves once /healthz answers. */
export async function startService(env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-probe-"));
  const adminKey = `probe-admin-${Math.random().toString(36).slice(2)}`;
  const child = spawn(process.execPath, [join(import.meta.dirname, "../../src/main.ts")], {
    env: { ...process.env, PORT: String(port), TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: adminKey, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it answered`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.body?.cancel();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("the service did not answer /healthz within 30 s");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url, adminKey, dataDir, child, stop };
}

/** A JSON request to the service (a path, or a full URL), as `key`'s user; null: no key. */
export async function call(service: Service, method: string, path: string, key: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const url = path.startsWith("http") ? path : `${service.url}${path}`;
  const res = await fetch(url, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: res.status, body: parsed };
}

/** Polls `check` until it returns something other than undefined, or `ms` pass (then undefined). */
export async function poll<T>(check: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 250));
  }
}
