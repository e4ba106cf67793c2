import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { resolveConfig } from "../src/config.ts";
import { buildApp } from "../src/app.ts";

// The service under test: either one started here (buildApp on a fresh temp data dir, listening on
// 127.0.0.1:0, its errors logged to a file the report points at) or one already running (--url).

export interface Target {
  host: string;
  port: number;
  /** an admin key */
  adminKey: string;
  /** where the in-process service logs (5xx details are there), if it is ours */
  logFile?: string;
  /** stops an in-process service; its data dir (with the log) is kept when asked */
  close(keepLog?: boolean): Promise<void>;
}

export async function startService(env: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-fuzz-"));
  const adminKey = "fuzz-admin-" + randomBytes(12).toString("hex");
  const logFile = join(dataDir, "service.log");
  const config = resolveConfig({
    TRIBUTARY_DATA_DIR: dataDir,
    TRIBUTARY_ADMIN_KEY: adminKey,
    TRIBUTARY_RUNNERS: "1",
    ...env,
  });
  // warn and up: the 5xx the fuzzer finds are logged with their error, nothing else is
  const app = await buildApp(config, { logger: { level: "warn", file: logFile } });
  await app.http.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.http.server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    adminKey,
    logFile,
    async close(keepLog = false) {
      await app.close();
      if (!keepLog) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function remoteService(url: string, key: string): Target {
  const u = new URL(url);
  if (u.protocol !== "http:") throw new Error("--url must be http:// (the fuzzer speaks raw HTTP/1.1 over TCP)");
  return { host: u.hostname, port: Number(u.port || 80), adminKey: key, close: async () => {} };
}
